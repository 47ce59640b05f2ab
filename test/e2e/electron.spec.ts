/**
 * The desktop app end to end with Playwright's Electron driver: start, close-to-tray, and a
 * notification click that brings the window back. It needs the Electron binary, which these
 * machines cannot download (ELECTRON_SKIP_BINARY_DOWNLOAD); here it skips and says why.
 * Run it where Electron is installed: `npm run build && npx playwright test test/e2e/electron.spec.ts`.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import type { InvokeResponse, MonitorTransport } from '../../src/shared/contract';

const root = resolve(__dirname, '..', '..');

/** The Electron binary, when `npm install` could download it; null otherwise. */
function electronBinary(): string | null {
  try {
    const p = createRequire(join(root, 'package.json'))('electron') as unknown;
    return typeof p === 'string' && existsSync(p) ? p : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
const SKIP_REASON =
  'the Electron binary is not installed on this machine (ELECTRON_SKIP_BINARY_DOWNLOAD); this spec runs where `npm install` could download Electron';
if (!binary) console.log(`electron.spec.ts: skipped: ${SKIP_REASON}`);

const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';

/** The page's global scope as the preload leaves it (evaluated in the page, where globalThis is window). */
type PageGlobals = { monitor?: MonitorTransport; require?: unknown; process?: unknown; open(url: string, target: string): unknown };

test.describe('desktop app (Electron)', () => {
  test.skip(!binary, SKIP_REASON);

  let app: ElectronApplication;
  let page: Page;
  let dataDir: string;

  test.beforeEach(async () => {
    test.skip(!existsSync(join(root, 'out', 'main', 'index.js')), 'out/ is missing: run `npm run build` first');
    dataDir = mkdtempSync(join(tmpdir(), 'tw-electron-e2e-'));
    const env = { ...process.env, TELEPORTER_WATCH_DATA_DIR: dataDir } as Record<string, string>;
    delete env.ELECTRON_RENDERER_URL;
    delete env.ELECTRON_RUN_AS_NODE;
    app = await electron.launch({ executablePath: binary!, args: [root], env, cwd: root });
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  });

  test.afterEach(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('starts with a locked-down window and exactly the monitor bridge', async () => {
    // No Node in the page; the bridge is the transport and nothing else.
    expect(await page.evaluate(() => [typeof (globalThis as unknown as PageGlobals).require, typeof (globalThis as unknown as PageGlobals).process])).toEqual([
      'undefined',
      'undefined',
    ]);
    expect(await page.evaluate(() => Object.keys((globalThis as unknown as PageGlobals).monitor ?? {}).sort())).toEqual(['invoke', 'subscribe']);
    const info = (await page.evaluate(() => (globalThis as unknown as PageGlobals).monitor!.invoke('getAppInfo', undefined))) as InvokeResponse<{
      shell: string;
    }>;
    expect(info.ok && info.value.shell).toBe('electron');
    // window.open never makes a window.
    await page.evaluate(() => void (globalThis as unknown as PageGlobals).open('https://evil.example/', '_blank'));
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  });

  test('closing the window hides it to the tray; the app keeps running', async () => {
    await expect.poll(() => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.isVisible())).toBe(true);
    const after = await app.evaluate(({ BrowserWindow }) => {
      const w = BrowserWindow.getAllWindows()[0]!;
      w.close();
      return { visible: w.isVisible(), destroyed: w.isDestroyed(), windows: BrowserWindow.getAllWindows().length };
    });
    expect(after).toEqual({ visible: false, destroyed: false, windows: 1 });
    // Still serving the page's calls while hidden.
    const status = (await page.evaluate(() => (globalThis as unknown as PageGlobals).monitor!.invoke('getPollStatus', undefined))) as InvokeResponse;
    expect(status.ok).toBe(true);
  });

  test('a notification click shows the window again', async () => {
    const supported = await app.evaluate(({ Notification }) => Notification.isSupported());
    test.skip(!supported, 'this desktop has no notification service');
    // Keep a handle on each notification the shell shows, so the test can click it.
    await app.evaluate(({ Notification }) => {
      const g = globalThis as unknown as { twShown: Electron.Notification[] };
      g.twShown = [];
      // eslint-disable-next-line @typescript-eslint/unbound-method -- called with the notification as `this` below
      const show = Notification.prototype.show;
      Notification.prototype.show = function (this: Electron.Notification) {
        g.twShown.push(this);
        return show.call(this);
      };
    });
    // A feed on C-Chain with "new" notifications: the local service's simulator sends messages
    // every second, so the next polls produce notifications.
    const added = (await page.evaluate(
      (c) =>
        (globalThis as unknown as PageGlobals).monitor!.invoke('addFeed', {
          name: 'C-Chain out',
          network: 'mainnet',
          filter: { sourceBlockchainId: c },
          notify: { new: true },
        }),
      C_CHAIN,
    )) as InvokeResponse;
    expect(added.ok).toBe(true);
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.hide());
    await expect
      .poll(
        async () => {
          await page.evaluate(() => (globalThis as unknown as PageGlobals).monitor!.invoke('pollNow', undefined));
          return app.evaluate(() => (globalThis as unknown as { twShown: unknown[] }).twShown.length);
        },
        { timeout: 45_000, intervals: [3_000] },
      )
      .toBeGreaterThan(0);
    await app.evaluate(() => {
      const n = (globalThis as unknown as { twShown: Electron.Notification[] }).twShown[0]!;
      n.emit('click', {});
    });
    await expect.poll(() => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.isVisible())).toBe(true);
  });
});
