/**
 * The whole shell against a fake Electron boundary and the REAL core: a temp data folder, the real
 * local service as a child process, real settings and events.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMonitorCore } from '../../src/core';
import type { MonitorCoreOptions } from '../../src/core/monitor-core';
import type { Logger } from '../../src/core/log/logger';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../src/shared/ipc-channels';
import { type ApiKeyStatus, type AppInfo, type InvokeResponse, type MonitorEvent, type NotificationPayload } from '../../src/shared/contract';
import { startShell, type RunningShell } from '../../src/main/shell';
import { SECURE_WEB_PREFERENCES } from '../../src/main/window-options';
import { fakeElectron, FakeWebContents, FakeWindow, frameAt } from './fake-electron';

const PATHS = {
  preload: '/opt/tw/out/preload/index.js',
  indexHtml: '/opt/tw/out/renderer/index.html',
  localService: '/opt/tw/out/main/local-service.js',
  icon: '/opt/tw/resources/icon.png',
};
const APP_URL = 'file:///opt/tw/out/renderer/index.html';
const EXEC = '/opt/tw/teleporter-watch';
const ADDRESS = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf';
const MESSAGE_ID = 'acf1c8b06f9aec48e9fcbefbbe576ae8a7ca3b327fcae111396e7cc99956674d';
const keychainService = `tw-test-shell-${process.pid}-${Date.now()}`;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function silentLogger(lines: string[]): Logger {
  const log = (level: string) => (m: string, f?: Record<string, unknown>) => void lines.push(`${level} ${m}${f ? ` ${JSON.stringify(f)}` : ''}`);
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

async function launch(opts: { gotLock?: boolean; argv?: string[]; autoPoll?: boolean; seed?: (dataDir: string) => Promise<void> } = {}) {
  const fx = fakeElectron();
  fx.app.gotLock = opts.gotLock ?? true;
  cleanups.push(() => rmSync(fx.app.home, { recursive: true, force: true }));
  if (opts.seed) await opts.seed(fx.app.getPath('userData'));
  const recorded: MonitorCoreOptions[] = [];
  const logs: string[] = [];
  const running = await startShell(fx.boundary, {
    paths: PATHS,
    platform: 'linux',
    argv: opts.argv ?? [EXEC],
    env: {},
    execPath: EXEC,
    createCore: (o) => {
      recorded.push(o);
      // The shell's spawn spec runs out/main/local-service.js under Electron-as-Node; here the same
      // service runs from source under Node. Polling waits for the test unless it asks for it.
      return createMonitorCore({
        ...o,
        autoPoll: opts.autoPoll ?? false,
        keychainService,
        localService: { kind: 'spawn', command: process.execPath, args: ['--import', 'tsx', resolve('src/local-service/cli.ts')] },
      });
    },
    logger: silentLogger(logs),
  });
  if (running) {
    cleanups.push(async () => {
      if (fx.app.quitCalls === 0) fx.app.quit();
      await running.closed;
    });
  }
  const win = fx.windows[0];
  const contents = win?.webContents;
  const invoke = (method: string, input?: unknown, from: { id: number } | undefined = contents, url = APP_URL) =>
    fx.ipcMain.invoke(IPC_INVOKE_CHANNEL, from!, frameAt(url), method, input) as Promise<InvokeResponse>;
  const eventsSent = () => (contents?.sent ?? []).filter((s) => s.channel === IPC_EVENT_CHANNEL).map((s) => s.payload as MonitorEvent);
  return { fx, running, recorded, logs, win: win as FakeWindow, contents: contents as FakeWebContents, invoke, eventsSent, tray: () => fx.trays[0]! };
}

describe('desktop shell', () => {
  it('a second launch quits at once and leaves the running one to show its window', async () => {
    const s = await launch({ gotLock: false });
    expect(s.running).toBeNull();
    expect(s.fx.app.quitCalls).toBe(1);
    expect(s.fx.windows).toEqual([]);
    expect(s.recorded).toEqual([]);
  });

  it('starts the core with the local service and shows its page in a locked-down window', async () => {
    const s = await launch();
    const running = s.running as RunningShell;
    const [opts] = s.recorded;
    expect(opts).toMatchObject({ dataDir: s.fx.app.getPath('userData'), shell: 'electron', version: '0.1.0-test' });
    expect(opts!.localService).toEqual({ kind: 'spawn', command: EXEC, args: [PATHS.localService], env: { ELECTRON_RUN_AS_NODE: '1' } });
    expect(typeof opts!.notifier).toBe('function');
    expect(typeof opts!.openExternal).toBe('function');

    expect(s.win.options.webPreferences).toEqual({ ...SECURE_WEB_PREFERENCES, preload: PATHS.preload });
    expect(s.win.loaded).toEqual([{ kind: 'file', target: PATHS.indexHtml }]);
    expect(s.fx.session.respond({})?.['Content-Security-Policy']?.[0]).toContain("script-src 'self'");
    let granted: boolean | null = null;
    s.fx.session.requestHandler!({ getURL: () => APP_URL }, 'notifications', (g) => (granted = g), {});
    expect(granted).toBe(false);
    // Guards were attached to the window's contents when Electron created them.
    expect(s.contents.fire('will-navigate', 'https://evil.example/').defaultPrevented).toBe(true);
    expect(s.contents.windowOpenHandler!({ url: 'https://snowtrace.io/tx/0x1' })).toEqual({ action: 'deny' });
    await vi.waitFor(() => expect(s.fx.opened).toEqual(['https://snowtrace.io/tx/0x1']));

    // Hidden until the page is ready, then shown.
    expect(s.win.visible).toBe(false);
    s.win.emitRaw('ready-to-show');
    expect(s.win.visible).toBe(true);

    // The core runs: the page's first call reaches it, and the local service it started answers.
    const info = await s.invoke('getAppInfo');
    expect(info.ok).toBe(true);
    const { dataSource, shell } = (info as { value: AppInfo }).value;
    expect(shell).toBe('electron');
    expect(dataSource.kind).toBe('local');
    expect(dataSource.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    expect((await fetch(`${dataSource.baseUrl}/v1/teleporter/messages?pageSize=1&network=mainnet`)).status).toBe(200);
    // Another webContents is refused.
    expect(await s.invoke('getAppInfo', undefined, new FakeWebContents())).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });

    // The tray shows the core's own keychain status and poll status.
    const key = (await s.invoke('getApiKeyStatus')) as { ok: true; value: ApiKeyStatus };
    expect(running.tray.state().keychainError).toBe(key.value.keychainError);
    expect(s.tray().tooltip).toMatch(/^Teleporter Watch: 0 pending · /);

    // Quit: the core closes (and with it the local service) before the app goes.
    s.tray().clickItem('quit');
    await running.closed;
    expect(s.tray().destroyed).toBe(true);
    expect(s.fx.app.quitCalls).toBe(2);
    await expect(fetch(`${dataSource.baseUrl}/v1/teleporter/messages?network=mainnet`)).rejects.toThrow();
    expect(s.win.userClose().defaultPrevented).toBe(false);
  });

  it('keeps running in the tray: close hides, the tray and a second launch bring it back', async () => {
    const s = await launch();
    s.win.emitRaw('ready-to-show');
    expect(s.win.userClose().defaultPrevented).toBe(true);
    expect(s.win.visible).toBe(false);
    expect(s.win.isDestroyed()).toBe(false);
    expect(s.tray().menu.find((i) => i.id === 'toggle-window')?.label).toBe('Show Teleporter Watch');
    s.tray().clickItem('toggle-window');
    expect(s.win.visible).toBe(true);
    expect(s.tray().menu.find((i) => i.id === 'toggle-window')?.label).toBe('Hide window');
    s.tray().clickItem('toggle-window');
    expect(s.win.visible).toBe(false);
    s.win.minimized = true;
    const focusedBefore = s.win.focused;
    s.fx.app.emitRaw('second-instance', {}, ['tw'], '/');
    expect([s.win.visible, s.win.minimized, s.win.focused]).toEqual([true, false, focusedBefore + 1]);
    // 'window-all-closed' has a listener, so Electron does not quit by itself.
    expect(s.fx.app.listenerCount('window-all-closed')).toBe(1);
  });

  it('relays core events to the page and the tray, and follows the start-at-login setting', async () => {
    // Polling on, as in the app.
    const s = await launch({ autoPoll: true });
    expect((await s.invoke('addWatch', { address: ADDRESS })).ok).toBe(true);
    expect(s.eventsSent()).toContainEqual({ type: 'watchlist-changed' });

    // Poll now from the tray (enabled once no cycle runs): the core polls the local service and
    // reports its status, which the page and the tray both get.
    const pollNow = () => s.tray().menu.find((i) => i.id === 'poll-now');
    await vi.waitFor(() => expect(pollNow()?.enabled).toBe(true), { timeout: 15_000 });
    const seen = s.eventsSent().length;
    const clickedAt = Date.now();
    s.tray().clickItem('poll-now');
    await vi.waitFor(
      () =>
        expect(
          s
            .eventsSent()
            .slice(seen)
            .some((e) => e.type === 'poll-status' && e.status.state === 'idle' && (e.status.lastSuccessAt ?? 0) >= clickedAt),
        ).toBe(true),
      { timeout: 15_000 },
    );
    const last = s
      .eventsSent()
      .filter((e) => e.type === 'poll-status')
      .at(-1) as Extract<MonitorEvent, { type: 'poll-status' }>;
    expect(s.running!.tray.state().status).toEqual(last.status);
    expect(s.tray().tooltip).toContain(`${last.status.tracked} pending`);
    expect(s.tray().menu.find((i) => i.id === 'pending')?.label).toContain('watching 1');

    // Start at login: the setting changes through the page, the autostart entry follows.
    const entry = join(s.fx.app.getPath('appData'), 'autostart', 'teleporter-watch.desktop');
    expect(existsSync(entry)).toBe(false);
    expect((await s.invoke('updateSettings', { startAtLogin: true, startHidden: true })).ok).toBe(true);
    expect(s.eventsSent().some((e) => e.type === 'settings-changed' && e.settings.startAtLogin)).toBe(true);
    await vi.waitFor(() => expect(existsSync(entry) && readFileSync(entry, 'utf8')).toContain(`Exec=${EXEC} ${s.fx.app.getAppPath()} --hidden\n`));
    expect((await s.invoke('updateSettings', { startAtLogin: false })).ok).toBe(true);
    await vi.waitFor(() => expect(existsSync(entry)).toBe(false));
  });

  it('shows the core’s notifications; a click brings the window to that message', async () => {
    const s = await launch();
    const notify = s.recorded[0]!.notifier!;
    const payload: NotificationPayload = {
      id: 1,
      title: 'Message stuck',
      body: 'Pending for 31 min: C-Chain → Beam',
      messageId: MESSAGE_ID,
      transitionIds: [4],
    };
    await notify(payload);
    const [n] = s.fx.notifications;
    expect([n?.options.title, n?.options.body, n?.options.icon, n?.shown]).toEqual(['Message stuck', 'Pending for 31 min: C-Chain → Beam', PATHS.icon, true]);

    expect(s.win.visible).toBe(false);
    n!.emitRaw('click', {});
    expect(s.win.visible).toBe(true);
    expect(s.eventsSent().at(-1)).toEqual({ type: 'focus-message', messageId: MESSAGE_ID });

    // A click while the page (re)loads is delivered once it has loaded.
    await notify({ ...payload, id: 2 });
    s.contents.loading = true;
    const before = s.eventsSent().length;
    s.fx.notifications[1]!.emitRaw('click', {});
    expect(s.eventsSent()).toHaveLength(before);
    s.contents.loading = false;
    s.contents.emitRaw('did-finish-load');
    expect(s.eventsSent().at(-1)).toEqual({ type: 'focus-message', messageId: MESSAGE_ID });

    // A coalesced summary only shows the window.
    await notify({ id: 3, title: '5 messages delivered', body: '…', transitionIds: [5, 6, 7, 8, 9] });
    s.win.hide();
    const count = s.eventsSent().length;
    s.fx.notifications[2]!.emitRaw('click', {});
    expect(s.win.visible).toBe(true);
    expect(s.eventsSent()).toHaveLength(count);
  });

  it('starts hidden in the tray when the user chose so', async () => {
    const s = await launch({
      seed: async (dataDir) => {
        // The user's earlier choice, stored by the core; no local service needed for this test.
        const core = await createMonitorCore({ dataDir, shell: 'electron', version: 'seed', autoPoll: false, keychainService });
        const r = await core.invoke('updateSettings', { startHidden: true, dataSource: { kind: 'custom', baseUrl: 'http://127.0.0.1:9' } });
        expect(r.ok).toBe(true);
        await core.close();
      },
    });
    s.win.emitRaw('ready-to-show');
    expect(s.win.visible).toBe(false);
    expect(s.tray().menu.find((i) => i.id === 'toggle-window')?.label).toBe('Show Teleporter Watch');
    s.tray().clickItem('toggle-window');
    expect(s.win.visible).toBe(true);
  });
});
