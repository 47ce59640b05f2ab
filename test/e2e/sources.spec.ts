/**
 * Every figure tied to its source (issue 41), walked as a user would: the embedded demo with a demo
 * relayer watched, then a URL nothing answers, a restart of the web host (a new port: another origin),
 * your own nodes (two anvil chains), and the demo again, all without restarting for a switch. At each
 * step no figure or alert of one source is shown as another's: the Relayers view and Charts count the
 * current source only, every row of another source in the Local cache and Activity is marked "from
 * <source>", and the banner names, from the core's database, which other sources' figures are kept.
 */
import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchWebApp, type WebApp } from '../../src/host/app';
import { RENDERER_OUT_DIR } from '../../src/host/paths';
import { ensureRendererBuilt } from '../../src/host/renderer-build';
import type { WatchedRoute } from '../../src/shared/relayers';
import { startTestChains, type TestChain } from '../own-node/chains';
import { sendMessage } from '../own-node/relayer';
import { alphaBetaSource } from '../own-node/rig';

const DEMO = 'the embedded demo (simulated)';
const OWN = 'your own nodes';
/** A source nobody listens on (tests never leave 127.0.0.1). */
const UNREACHABLE = 'http://127.0.0.1:9';

let a: TestChain, b: TestChain;
let app: WebApp | null = null;
let dir: string;

/** The web host on the one data folder, its core spawning the demo service as `npm start` does (a fast demo). */
const launch = () =>
  launchWebApp({
    dataDir: join(dir, 'data'),
    rendererDir: RENDERER_OUT_DIR,
    localServiceChoice: { rate: 2 },
    keychainService: `teleporter-watch-e2e-sources-${process.pid}`,
  });

async function call<T = unknown>(method: string, input?: unknown): Promise<T> {
  const r = await app!.core.invoke(method, input);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value as T;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await ensureRendererBuilt();
  [a, b] = await startTestChains(31911, 31912);
  dir = mkdtempSync(join(tmpdir(), 'tw-e2e-sources-'));
  app = await launch();
  await call('updateSettings', { pollIntervalSeconds: 5 });
});
test.afterAll(async () => {
  await app?.close();
  await Promise.all([a?.node.stop(), b?.node.stop()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function open(page: Page, hash: string): Promise<void> {
  await page.goto(`${app!.host.url}${hash}`);
  await expect(page.getByTestId('poll-status')).toBeVisible();
}

async function view(page: Page, name: string): Promise<void> {
  await page.getByTestId(`nav-${name}`).click();
  await expect(page.getByTestId(`view-${name}`)).toBeVisible();
}

/** The status bar's source health reaches `state` for `source`. */
async function health(page: Page, source: string, state: RegExp): Promise<void> {
  const tag = page.getByTestId('poll-source-health');
  await expect(tag).toHaveAttribute('data-source', source, { timeout: 60_000 });
  await expect(tag).toHaveAttribute('data-state', state, { timeout: 60_000 });
}

/** A watched relayer's deliveries in the last 24 h as the Relayers view shows them (0 when it shows none). */
async function deliveries(page: Page, address: string): Promise<number> {
  await view(page, 'relayers');
  const row = page.locator(`[data-testid="relayer-row"][data-address="${address}"]`);
  await expect(row).toBeVisible();
  const cell = row.getByTestId('relayer-deliveries-24h');
  return (await cell.count()) ? Number(await cell.innerText()) : 0;
}

/**
 * In the Local cache and Activity every row is the current source's, or marked as another's: a row of
 * `other` is marked "from <source>", and no row is marked with the current one.
 */
async function rowsMarked(page: Page, current: string, other: string): Promise<void> {
  await view(page, 'cache');
  await expect(page.getByTestId('cache-row').first()).toBeVisible();
  const cacheRows = await page.getByTestId('cache-row').count();
  const cacheMarks = page.locator('[data-testid="cache-row"] [data-testid="other-source"]');
  await expect(cacheMarks.first()).toHaveAttribute('data-source', other);
  for (const s of await cacheMarks.evaluateAll((els) => els.map((e) => e.getAttribute('data-source')))) expect(s).not.toBe(current);
  expect(cacheRows).toBeGreaterThan(0);
  await view(page, 'activity');
  const marks = page.locator('[data-testid="view-activity"] [data-testid="other-source"]');
  for (const s of await marks.evaluateAll((els) => els.map((e) => e.getAttribute('data-source')))) expect(s).not.toBe(current);
}

test('demo, an unreachable URL, a restart, own nodes and the demo again: no figure or alert of one source shown as another', async ({ page }) => {
  test.setTimeout(300_000);

  // 1. The demo: a demo relayer watched from the offer; its deliveries count.
  await open(page, '#/relayers');
  // Nothing watched yet: nothing is polled, so the demo is "not read yet" until the relayer is watched.
  await expect(page.getByTestId('poll-source-health')).toHaveAttribute('data-source', 'local', { timeout: 60_000 });
  const offer = page.getByTestId('demo-relayer').first();
  const relayer = (await offer.getAttribute('data-address'))!;
  await offer.getByTestId('demo-relayer-watch').click();
  await expect.poll(() => deliveries(page, relayer), { timeout: 90_000, intervals: [2_000] }).toBeGreaterThan(0);
  await health(page, 'local', /up/);
  await expect(page.getByTestId('source-kept-banner')).toHaveCount(0);

  // 2. A URL nothing answers: not read yet, then failing; alerts held; the demo's figures counted nowhere, marked everywhere.
  await call('updateSettings', { dataSource: { kind: 'custom', baseUrl: UNREACHABLE } });
  await health(page, `custom:${UNREACHABLE}`, /unknown|degraded|down/);
  await expect(page.getByTestId('poll-source-health')).toHaveAttribute('data-seeing', 'false');
  await expect(page.getByTestId('source-kept-banner')).toHaveAttribute('data-kept', DEMO);
  await expect(page.getByTestId('demo-banner')).toHaveCount(0);
  expect(await deliveries(page, relayer)).toBe(0);
  await view(page, 'charts');
  await expect(page.getByTestId('charts-total')).toHaveAttribute('data-total', '0');
  await rowsMarked(page, `custom:${UNREACHABLE}`, 'local');

  // 3. A restart: a new web host on the same data folder, on a new port (another origin, no browser storage carried over).
  const before = app!.host.url;
  await app!.close();
  app = await launch();
  expect(app.host.url).not.toBe(before);
  await open(page, '#/relayers');
  await expect(page.getByTestId('source-kept-banner')).toHaveAttribute('data-kept', DEMO);
  await expect(page.getByTestId('poll-source-health')).toHaveAttribute('data-source', `custom:${UNREACHABLE}`);
  expect(await deliveries(page, relayer)).toBe(0);
  await rowsMarked(page, `custom:${UNREACHABLE}`, 'local');

  // 4. Your own nodes: a watched route's message on chain Alpha is theirs; the demo's are still marked, the URL gave nothing to name.
  await call('updateSettings', { dataSource: alphaBetaSource(a, b) });
  await health(page, 'ownNodes', /up|degraded/);
  const route = await call<WatchedRoute>('addRoute', { source: 'Alpha', destination: 'Beta', alert: false });
  // The Data API lists message IDs without 0x.
  const id = (await sendMessage(a, b)).messageId.slice(2);
  await expect
    .poll(
      async () => {
        await call('pollNow');
        return (await call<{ source: string } | null>('getMessage', { messageId: id }))?.source ?? null;
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toBe('ownNodes');
  await expect(page.getByTestId('source-kept-banner')).toHaveAttribute('data-kept', DEMO);
  expect(await deliveries(page, relayer)).toBe(0);
  await view(page, 'cache');
  await page.getByTestId('cache-filter').fill(id);
  await expect(page.locator(`[data-testid="cache-row"][data-message-id="${id}"]`)).toBeVisible();
  await expect(page.locator(`[data-testid="cache-row"][data-message-id="${id}"] [data-testid="other-source"]`)).toHaveCount(0);
  await page.getByTestId('cache-filter').fill('');
  await rowsMarked(page, 'ownNodes', 'local');

  // 5. The demo again, started at runtime: its figures are current again; your own nodes' are the ones kept and marked.
  await call('updateSettings', { dataSource: { kind: 'local' } });
  await health(page, 'local', /up/);
  await expect(page.getByTestId('demo-banner')).toBeVisible();
  await expect(page.getByTestId('source-kept-banner')).toHaveAttribute('data-kept', OWN);
  await expect.poll(() => deliveries(page, relayer), { timeout: 60_000, intervals: [2_000] }).toBeGreaterThan(0);
  await view(page, 'cache');
  await page.getByTestId('cache-filter').fill(id);
  await expect(page.locator(`[data-testid="cache-row"][data-message-id="${id}"] [data-testid="other-source"]`)).toHaveAttribute('data-source', 'ownNodes');
  await call('removeRoute', { id: route.id });
});
