/**
 * The whole app on "your own nodes" once: the web host whose core spawns the local service in
 * own-nodes mode over two anvil chains, Chromium on its page. A message sent on chain A appears in the
 * Messages list as pending and turns delivered once the test relayer delivers it on chain B; the poll
 * status bar shows both chains following. The Relayers view takes a route by the chains' configured
 * names and shows it by them; the same route by EVM chain IDs is refused naming the watch it is.
 */
import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchWebApp, type WebApp } from '../../src/host/app';
import type { WatchedRoute } from '../../src/shared/relayers';
import { RENDERER_OUT_DIR, SERVICE_CLI, TSX_LOADER } from '../../src/host/paths';
import { ensureRendererBuilt } from '../../src/host/renderer-build';
import { startTestChains, type TestChain } from '../own-node/chains';
import { sendMessage, TestRelayer } from '../own-node/relayer';
import { alphaBetaSource } from '../own-node/rig';

let a: TestChain, b: TestChain;
let app: WebApp;
let dir: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await ensureRendererBuilt();
  [a, b] = await startTestChains(31901, 31902);
  dir = mkdtempSync(join(tmpdir(), 'tw-e2e-own-'));
  app = await launchWebApp({
    dataDir: join(dir, 'data'),
    rendererDir: RENDERER_OUT_DIR,
    localService: { kind: 'spawn', command: process.execPath, args: ['--import', TSX_LOADER, SERVICE_CLI] },
    keychainService: `teleporter-watch-e2e-own-${process.pid}-${Date.now()}`,
    // Checked as Settings checks it: each node answers eth_chainId, each messenger holds code.
    source: alphaBetaSource(a, b),
  });
  // Listed under mainnet, the Messages filter's default network.
  const r = await app.core.invoke('updateSettings', { pollIntervalSeconds: 5 });
  expect(r.ok).toBe(true);
});
test.afterAll(async () => {
  await app?.close();
  await Promise.all([a?.node.stop(), b?.node.stop()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The row of a message in the first page of the list, refreshed until `status` shows. */
async function rowReaches(page: Page, id: string, status: string): Promise<void> {
  const row = page.locator(`[data-testid="message-row"][data-message-id="${id}"]`);
  await expect
    .poll(
      async () => {
        if (!(await row.count())) await page.getByTestId('refresh').click();
        return (await row.count()) ? row.getAttribute('data-status') : null;
      },
      { timeout: 30_000, intervals: [500, 1000] },
    )
    .toBe(status);
}

test('a message sent on one own node shows pending, then delivered, in the Messages list', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${app.host.url}#/messages`);
  await expect(page.getByTestId('poll-status')).toBeVisible();
  // Each chain's state, read from the service after each poll cycle.
  await expect
    .poll(
      async () => {
        await page.getByTestId('poll-now').click();
        return page.getByTestId('poll-own-node').allTextContents();
      },
      { timeout: 30_000, intervals: [500, 1000] },
    )
    .toEqual(['Alpha: following', 'Beta: following']);

  const sent = await sendMessage(a, b);
  const id = sent.messageId.slice(2);
  await rowReaches(page, id, 'pending');
  await new TestRelayer([a, b]).deliverAll();
  await expect
    .poll(
      async () => {
        await page.getByTestId('refresh').click();
        return page.locator(`[data-testid="message-row"][data-message-id="${id}"]`).getAttribute('data-status');
      },
      { timeout: 30_000, intervals: [500, 1000] },
    )
    .toBe('delivered');
  expect(problems).toEqual([]);
});

test("the Relayers view takes a route by your chains' names and shows it by them; the same route by EVM chain IDs is refused", async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${app.host.url}#/relayers`);
  await expect(page.getByTestId('view-relayers')).toBeVisible();
  // The form's hint names one of your own chains.
  await expect(page.getByTestId('route-source')).toHaveAttribute('placeholder', 'Alpha, cb58 ID or EVM chain ID');
  const watch = async (source: string, destination: string) => {
    await page.getByTestId('route-source').fill(source);
    await page.getByTestId('route-destination').fill(destination);
    await page.getByTestId('route-add').click();
  };
  await watch('Alpha', 'beta');
  const row = page.getByTestId('route-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('route-name')).toHaveText('Alpha → Beta');

  await watch(String(a.chainId), String(b.chainId));
  await expect(page.getByTestId('field-error-route-destination')).toHaveText('This route is already watched as Alpha → Beta.');
  await expect(row).toHaveCount(1);
  // Kept by the chains' cb58 IDs inside.
  const routes = await app.core.invoke('listRoutes', undefined);
  expect(routes.ok && (routes.value as WatchedRoute[]).map((r) => [r.sourceChain, r.destinationChain])).toEqual([[a.blockchainId, b.blockchainId]]);
  expect(problems).toEqual([]);
});
