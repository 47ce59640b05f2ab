/**
 * The BUILT desktop bundle (out/main/index.js) starting on Node 22, the Node that Electron 39 runs,
 * with only the `electron` module replaced by a recording stand-in (fixtures/main-bundle-child.ts).
 * Everything else is real: the core on a temporary data folder, node:sqlite, the OS keychain module,
 * and the local service as a child process started the way Electron starts it (ELECTRON_RUN_AS_NODE).
 * `npm test` builds first; alone, run `npx electron-vite build` before this file.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SECURE_WEB_PREFERENCES } from '../../src/main/window-options';
import type { InvokeResponse } from '../../src/shared/contract';
import { openStore } from '../../src/core/store';
import { loadSqlite } from '../../src/sqlite';
import type { StandInSnapshot } from './electron-stand-in';
import { alive } from '../support/process-alive';

const root = resolve(__dirname, '..', '..');
const bundle = join(root, 'out/main/index.js');
const childScript = join(__dirname, 'fixtures/main-bundle-child.ts');

type Snapshot = StandInSnapshot & { natives: string[] };

interface Launched {
  child: ChildProcess;
  dataDir: string;
  fatal: string[];
  /** The stand-in's last snapshot, sent as the app finished quitting. */
  final: () => Snapshot | null;
  output: () => string;
  exited: Promise<number | null>;
  call<T = unknown>(cmd: string, args?: Record<string, unknown>): Promise<T>;
  snapshot(): Promise<Snapshot>;
  invoke(method: string, input?: unknown): Promise<InvokeResponse>;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function launch(opts: { env?: Record<string, string> } = {}, dataDir = mkdtempSync(join(tmpdir(), 'tw-desktop-'))): Launched {
  if (!existsSync(bundle)) throw new Error('out/main/index.js is missing: run "npx electron-vite build" first.');
  const child = fork(childScript, [bundle], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, TELEPORTER_WATCH_DATA_DIR: dataDir, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const fatal: string[] = [];
  let final: Snapshot | null = null;
  const pending = new Map<number, { ok(v: unknown): void; fail(e: Error): void }>();
  let nextId = 1;
  child.on('message', (m: { reply?: number; value?: unknown; error?: string; fatal?: string; final?: Snapshot }) => {
    if (m.fatal) fatal.push(m.fatal);
    if (m.final) final = m.final;
    if (m.reply === undefined) return;
    const p = pending.get(m.reply);
    pending.delete(m.reply);
    if (m.error !== undefined) p?.fail(new Error(m.error));
    else p?.ok(m.value);
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  });
  const call = <T>(cmd: string, args: Record<string, unknown> = {}) =>
    new Promise<T>((ok, fail) => {
      if (!child.connected) return fail(new Error(`the app process is gone; its output:\n${output}`));
      const id = nextId++;
      pending.set(id, { ok, fail });
      child.send({ id, cmd, ...args });
    });
  return {
    child,
    dataDir,
    fatal,
    final: () => final,
    output: () => output,
    exited,
    call,
    snapshot: () => call<Snapshot>('snapshot'),
    invoke: (method, input) => call<InvokeResponse>('invoke', { method, input }),
  };
}

/** Child processes of a process (the local service is one of the app's). */
function childrenOf(pid: number): number[] {
  const r = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  return r.stdout
    .split('\n')
    .map((s) => Number(s.trim()))
    .filter((n) => n > 0);
}

describe('the built desktop app on Node 22', () => {
  it('starts, shows a locked-down window, notifies once for a watched message, hides in the tray and quits with everything closed', async () => {
    const app = launch();
    // ready → single-instance lock → window, in that order, after the before-ready switches.
    await vi.waitFor(async () => expect((await app.snapshot()).windows).toHaveLength(1), { timeout: 30_000 });
    let s = await app.snapshot();
    expect(s.calls.indexOf('enableSandbox')).toBeLessThan(s.calls.indexOf('ready'));
    expect(s.calls.indexOf('requestSingleInstanceLock')).toBeLessThan(s.calls.indexOf('ready'));
    expect(s.userData).toBe(app.dataDir);
    const [win] = s.windows;
    expect(win!.options.webPreferences).toEqual({ ...SECURE_WEB_PREFERENCES, preload: join(root, 'out/preload/index.js') });
    await vi.waitFor(async () => expect((await app.snapshot()).windows[0]!.loaded).toEqual([join(root, 'out/renderer/index.html')]), { timeout: 30_000 });
    // The keychain's native binding loaded (N-API, any ABI).
    expect(s.natives.some((f) => /keyring/.test(f))).toBe(true);

    // The core runs on the data folder, with the local service as a child run as Electron runs it.
    const info = await app.invoke('getAppInfo');
    expect(info.ok).toBe(true);
    const baseUrl = (info as { value: { dataSource: { baseUrl: string } } }).value.dataSource.baseUrl;
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    expect(existsSync(join(app.dataDir, 'monitor.sqlite'))).toBe(true);
    expect(existsSync(join(app.dataDir, 'local-service.sqlite'))).toBe(true);
    const services = childrenOf(app.child.pid!);
    expect(services.length).toBeGreaterThan(0);

    // Shown once the page is ready.
    await app.call('window-event', { event: 'ready-to-show' });
    expect((await app.snapshot()).windows[0]!.visible).toBe(true);

    // A watched busy address, every transition notified: after its silent baseline, new traffic
    // from the local service's simulator becomes transitions and desktop notifications.
    const local = (await (await fetch(`${baseUrl}/_local/info`)).json()) as { hotAddresses: string[] };
    const notify = { new: true, left_pending: true, receipt_delivered: true, stuck: true };
    expect((await app.invoke('addWatch', { address: local.hotAddresses[0], notify })).ok).toBe(true);
    await vi.waitFor(
      async () => {
        await app.invoke('pollNow');
        expect((await app.snapshot()).notifications.length).toBeGreaterThan(0);
      },
      { timeout: 60_000, interval: 1_000 },
    );

    // Close hides to the tray; the tray brings it back; a second launch focuses it.
    expect(await app.call('user-close')).toBe(true);
    expect((await app.snapshot()).windows[0]!.visible).toBe(false);
    await app.call('tray-click', { item: 'toggle-window' });
    expect((await app.snapshot()).windows[0]!.visible).toBe(true);
    await app.call('tray-click', { item: 'toggle-window' });
    const focused = (await app.snapshot()).windows[0]!.focused;
    await app.call('second-instance');
    s = await app.snapshot();
    expect([s.windows[0]!.visible, s.windows[0]!.focused]).toEqual([true, focused + 1]);

    // Quit from the tray: the core closes its service and database, then the process ends by itself.
    await app.call('tray-click', { item: 'quit' });
    expect(await app.exited).toBe(0);
    await vi.waitFor(() => expect(services.filter(alive)).toEqual([]), { timeout: 10_000 });
    expect(app.fatal).toEqual([]);
    const last = app.final()!;
    expect(last.quit).toBe('done');
    expect(last.tray?.destroyed).toBe(true);

    // Each notification shown is one acknowledged outbox batch: none lost, none shown twice.
    const { DatabaseSync } = loadSqlite();
    const db = new DatabaseSync(join(app.dataDir, 'monitor.sqlite'), { readOnly: true });
    const delivered = db.prepare('SELECT COUNT(DISTINCT batch) AS n FROM outbox WHERE delivered_at IS NOT NULL').get() as { n: number };
    db.close();
    expect(last.notifications.length).toBe(delivered.n);
    expect(last.notifications.every((n) => n.shownTimes === 1)).toBe(true);
  }, 180_000);

  it('tells V8 in the main process to favour memory, without a command-line flag', async () => {
    // appendSwitch('js-flags') only reaches renderer processes; the core sets --optimize-for-size at run
    // time in the main process (memory/favor-memory.ts), and reports as it starts whether V8 took it.
    const app = launch();
    await vi.waitFor(() => expect(app.output()).toMatch(/core starting .*"favorMemory":true/), { timeout: 30_000 });
    await app.call('quit');
    expect(await app.exited).toBe(0);
    expect(app.fatal).toEqual([]);
  });

  it('a data folder with a database from a newer version: the window opens and says so, the app stays up', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tw-desktop-newer-'));
    openStore(dataDir).close();
    const { DatabaseSync } = loadSqlite();
    const db = new DatabaseSync(join(dataDir, 'monitor.sqlite'));
    db.exec('PRAGMA user_version = 99');
    db.close();
    const app = launch({}, dataDir);
    await vi.waitFor(async () => expect((await app.snapshot()).windows[0]?.loaded).toHaveLength(1), { timeout: 30_000 });
    const info = await app.invoke('getAppInfo');
    expect(info).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining(`The data folder ${dataDir} holds a database from a newer Teleporter Watch (schema 99`) },
    });
    expect(app.output()).toContain('the core could not start: The data folder');
    const s = await app.snapshot();
    expect([s.dialogs, s.exitCode, s.quit]).toEqual([[], null, 'running']);
    await app.call('quit');
    expect(await app.exited).toBe(0);
    expect(app.fatal).toEqual([]);
  });

  it('a second launch takes no lock, opens nothing, starts no core and quits', async () => {
    const app = launch({ env: { TW_STAND_IN_LOCK_TAKEN: '1' } });
    expect(await app.exited).toBe(0);
    const last = app.final()!;
    expect(last.calls).toContain('requestSingleInstanceLock');
    expect([last.windows, last.tray, last.quit]).toEqual([[], null, 'done']);
    expect(existsSync(join(app.dataDir, 'monitor.sqlite'))).toBe(false);
    expect(app.fatal).toEqual([]);
  });
});
