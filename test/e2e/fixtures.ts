/**
 * The real stack for the web end-to-end specs, started once per Playwright worker: the local
 * local service in-process (its realistic world: indexing lag, sparse routes, two messengers, the
 * public API's rate limit; fast, so deliveries happen within seconds; in-process so a
 * spec can inject faults), the core on a temp data folder, and the web host on a free port.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchWebApp, type WebApp } from '../../src/host/app';
import { RENDERER_OUT_DIR, PROJECT_ROOT } from '../../src/host/paths';
import { ensureRendererBuilt } from '../../src/host/renderer-build';
import { startLocalService, type SimulatedService, type SimulatedServiceOptions } from '../../src/local-service';

export interface WebStack {
  app: WebApp;
  service: SimulatedService;
  keychainService: string;
  /** Calls the MonitorApi the way the page does (setup and checks from the test side). */
  call<T = unknown>(method: string, input?: unknown): Promise<T>;
}

/** The one API key the local service accepts (any other is refused with 401). */
export const E2E_API_KEY = 'e2e-accepted-key-0001';

/** The README's pictures: every e2e run regenerates them from real data. */
export const SCREENSHOT_DIR = join(PROJECT_ROOT, 'docs', 'screenshots');

interface SentCall {
  method: string;
  input: unknown;
}

/** Every MonitorApi call a page opened by `openApp` sent, in order: over HTTP or over its socket. */
const pageCalls = new WeakMap<Page, SentCall[]>();

function recordCalls(page: Page): void {
  const calls: SentCall[] = [];
  pageCalls.set(page, calls);
  page.on('request', (r) => {
    const m = /^\/api\/invoke\/(\w+)$/.exec(new URL(r.url()).pathname);
    if (m) calls.push({ method: m[1]!, input: (r.postDataJSON() as { input?: unknown } | null)?.input });
  });
  page.on('websocket', (ws) =>
    ws.on('framesent', (f) => {
      try {
        const frame = JSON.parse(String(f.payload)) as { method?: unknown; input?: unknown };
        if (typeof frame.method === 'string') calls.push({ method: frame.method, input: frame.input });
      } catch {
        // Not a call frame.
      }
    }),
  );
}

/** How many `method` calls the page has sent so far (HTTP and socket alike). */
export const callsSent = (page: Page, method: string): number => inputsSent(page, method).length;

/** The inputs of the `method` calls the page has sent so far, in order. */
export const inputsSent = (page: Page, method: string): unknown[] => (pageCalls.get(page) ?? []).filter((c) => c.method === method).map((c) => c.input);

export const test = base.extend<{ openApp: (hash?: string) => Promise<Page> }, { stack: WebStack; serviceOptions: Partial<SimulatedServiceOptions> }>({
  /** Extra options for the worker's local service (`test.use({ serviceOptions })`: a spec that differs gets its own worker and stack). */
  serviceOptions: [{}, { scope: 'worker', option: true }],
  stack: [
    async ({ serviceOptions }, use) => {
      await ensureRendererBuilt();
      const dir = mkdtempSync(join(tmpdir(), 'tw-e2e-'));
      const service = await startLocalService({
        realistic: true,
        seed: 11,
        rate: 1,
        speed: 30,
        preload: 300,
        apiKeys: [E2E_API_KEY],
        log: () => {},
        ...serviceOptions,
      });
      const keychainService = `teleporter-watch-e2e-${process.pid}-${Date.now()}`;
      const app = await launchWebApp({
        dataDir: join(dir, 'data'),
        rendererDir: RENDERER_OUT_DIR,
        localService: { kind: 'url', url: service.url },
        keychainService,
      });
      const call = async <T>(method: string, input?: unknown): Promise<T> => {
        const res = await fetch(`${app.host.origin}/api/invoke/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${app.host.token}` },
          body: JSON.stringify({ input: input ?? null }),
        });
        const body = (await res.json()) as { ok: boolean; value?: T; error?: { message: string } };
        if (!body.ok) throw new Error(`${method} failed: ${body.error?.message}`);
        return body.value as T;
      };
      // Polls every 5 s (the minimum) so changes show up quickly without the test clicking "Poll now".
      await call('updateSettings', { pollIntervalSeconds: 5 });
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await use({ app, service, keychainService, call });
      await call('deleteApiKey').catch(() => undefined);
      await app.close();
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  openApp: async ({ page, stack }, use) => {
    // The page runs under the host's CSP header: a violation or an uncaught error fails the test.
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    recordCalls(page);
    await use(async (hash = '#/messages') => {
      await page.goto(`${stack.app.host.url}${hash}`);
      await expect(page.getByTestId('poll-status')).toBeVisible();
      return page;
    });
    expect(problems).toEqual([]);
  },
});

export { expect };

/** Resolves once every canvas in the page (the charts) looks the same twice in a row: their animation is over. */
export async function canvasesSettled(page: Page): Promise<void> {
  const pixels = () => page.locator('canvas').evaluateAll((cs) => cs.map((c) => (c as unknown as { toDataURL(): string }).toDataURL()).join('|'));
  let last = await pixels();
  await expect
    .poll(
      async () => {
        const now = await pixels();
        const same = now === last;
        last = now;
        return same;
      },
      { intervals: [100, 200, 400] },
    )
    .toBe(true);
}

/** Full-page screenshot of the current view under test-results/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: false, animations: 'disabled' });
}
