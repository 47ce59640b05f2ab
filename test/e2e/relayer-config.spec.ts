/**
 * Import relayer config, in the web shell on your own nodes: the relayer config `npm run devnet` writes
 * (src/devnet/relayer-config-file.ts, here over two anvil chains named as the devnet names them) is
 * chosen in the Relayers view; its preview shows the routes it serves and its wallet; Apply watches
 * them, and its relayer's own metrics (read from the file's metrics-port) show beside the chain's
 * deliveries; a message whose execution fails on one of those routes offers its exact retry call, which
 * the test then sends and sees succeed.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress, type Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { launchWebApp, type WebApp } from '../../src/host/app';
import { RENDERER_OUT_DIR, SERVICE_CLI, TSX_LOADER } from '../../src/host/paths';
import { ensureRendererBuilt } from '../../src/host/renderer-build';
import { describeChain, type Devnet } from '../../src/devnet/devnet';
import { relayerConfigJson } from '../../src/devnet/relayer-config-file';
import { RelayerStyleMetrics, serveRelayerMetrics, type RelayerMetricsServer } from '../../src/devnet/relayer-metrics';
import { KEYS, startTestChains, type TestChain } from '../own-node/chains';
import { sendMessage, TestRelayer } from '../own-node/relayer';
import { chainConfig } from '../own-node/rig';

let a: TestChain, b: TestChain;
let app: WebApp;
let dir: string;
let relayerFile: string;
/** The relayer's own metrics, as the devnet serves them: the ICM relayer's names and labels, counting what the test's relayer does. */
const own = new RelayerStyleMetrics('current');
let ownServer: RelayerMetricsServer;
const relayer = privateKeyToAddress(KEYS.relayer);

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await ensureRendererBuilt();
  [a, b] = await startTestChains(31951, 31952);
  dir = mkdtempSync(join(tmpdir(), 'tw-e2e-relayer-config-'));
  ownServer = await serveRelayerMetrics(own, 0);
  const devnet: Devnet = {
    chains: [describeChain('devnet-a', a), describeChain('devnet-b', b)],
    sender: privateKeyToAddress(KEYS.sender),
    relayer,
    sent: () => 0,
    stop: async () => {},
    relayerMetricsUrl: ownServer.url,
  };
  relayerFile = join(dir, 'devnet-relayer.json');
  writeFileSync(relayerFile, relayerConfigJson(devnet));
  app = await launchWebApp({
    dataDir: join(dir, 'data'),
    rendererDir: RENDERER_OUT_DIR,
    localService: { kind: 'spawn', command: process.execPath, args: ['--import', TSX_LOADER, SERVICE_CLI] },
    keychainService: `teleporter-watch-e2e-relayer-config-${process.pid}-${Date.now()}`,
    // Its metrics read every 3 s instead of every 2 min, so the comparison shows within the spec.
    relayerMetrics: { everyMs: 3_000 },
    source: {
      kind: 'ownNodes',
      ownNodes: {
        chains: [chainConfig(a, { name: 'devnet-a', network: 'mainnet' }), chainConfig(b, { name: 'devnet-b', network: 'mainnet' })],
        confirmations: 0,
        pollIntervalMs: 200,
        requestTimeoutMs: 15_000,
      },
    },
  });
  expect((await app.core.invoke('updateSettings', { pollIntervalSeconds: 5 })).ok).toBe(true);
});
test.afterAll(async () => {
  await app?.close();
  await Promise.all([a?.node.stop(), b?.node.stop(), ownServer?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the devnet's relayer config: its routes and wallet previewed and watched, its own metrics beside the chain's, and a failed execution's exact retry call", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${app.host.url}#/relayers`);
  const importCard = page.getByTestId('relayer-config-import');
  await expect(importCard).toBeVisible();

  // Chosen as a user chooses it (the view also takes it dropped): the preview, nothing applied yet.
  await page.getByTestId('relayer-config-file').setInputFiles(relayerFile);
  const preview = page.getByTestId('relayer-config-preview');
  await expect(preview.getByTestId('relayer-config-route')).toHaveText(['devnet-a → devnet-b', 'devnet-b → devnet-a']);
  await expect(preview.getByTestId('relayer-config-wallet')).toHaveText([`devnet-a: ${relayer}`, `devnet-b: ${relayer}`]);
  await expect(preview.getByTestId('relayer-config-relayers')).toContainText(`+ relayer (reward address) ${relayer}`);
  await expect(preview.getByTestId('relayer-config-metrics')).toContainText(`port ${new URL(ownServer.url).port}`);
  // The key field is named as never read; its value appears nowhere on the page.
  await expect(preview.getByTestId('relayer-config-skipped')).toContainText('destination-blockchains[0].account-private-key');
  expect(await page.content()).not.toContain(KEYS.relayer.slice(2));
  await expect(page.getByTestId('route-row')).toHaveCount(0);

  await page.getByTestId('relayer-config-apply').click();
  await expect(page.getByTestId('relayer-config-imported')).toBeVisible();
  await expect(page.getByTestId('route-name')).toHaveText(['devnet-a → devnet-b', 'devnet-b → devnet-a']);
  await expect(page.locator(`[data-testid="relayer-row"][data-address="${relayer}"]`)).toBeVisible();

  // The relayer stops serving devnet-b as a source: the file dropped on the view previews the route it removes.
  const changed = JSON.parse(readFileSync(relayerFile, 'utf8')) as { 'source-blockchains': unknown[] };
  changed['source-blockchains'].pop();
  const dataTransfer = await page.evaluateHandle((text) => {
    // In the page (this file is typed for Node, which has File but no DataTransfer).
    const dt = new (globalThis as unknown as { DataTransfer: new () => { items: { add(f: File): void } } }).DataTransfer();
    dt.items.add(new File([text], 'devnet-relayer.json', { type: 'application/json' }));
    return dt;
  }, JSON.stringify(changed));
  await page.getByTestId('view-relayers').dispatchEvent('drop', { dataTransfer });
  const again = page.getByTestId('relayer-config-preview');
  await expect(again.getByTestId('relayer-config-routes')).toContainText('+0 −1 (1 already watched)');
  await expect(again.getByTestId('relayer-config-removed')).toHaveText(['− devnet-b → devnet-a']);
  await page.getByTestId('relayer-config-cancel').click();
  await expect(again).toHaveCount(0);

  // The relayer's own metrics, read from the imported metrics-port on this machine: a first read is the baseline.
  const ownView = page.locator(`[data-testid="own-view-relayer"][data-address="${relayer}"]`);
  await expect(ownView.getByTestId('own-view-url')).toHaveValue(ownServer.url);
  await expect(ownView).toHaveAttribute('data-state', /baseline|read/, { timeout: 30_000 });

  // A message on an imported route whose execution fails: its route lists it, with the exact call beside it.
  // The relayer counts its relays as the ICM relayer does (its own view); the chains show the delivery.
  const sent = await sendMessage(a, b);
  const chainRelayer = new TestRelayer([a, b], {
    onRelay: (s, d, outcome) => (outcome.ok ? own.relayed({ source: s.blockchainId, destination: d.blockchainId }) : undefined),
  });
  chainRelayer.failExecution.add(sent.messageId);
  await chainRelayer.deliverAll();
  // Its own count beside the chain's, on the route: 1 and 1 once both are read.
  const ownRoute = ownView.locator(`[data-testid="own-view-route"][data-source="${a.blockchainId}"][data-destination="${b.blockchainId}"]`);
  await expect
    .poll(
      async () => {
        if ((await ownRoute.count()) && (await ownRoute.getByTestId('own-view-chain-delivered').textContent())?.includes('1')) return true;
        await page.getByTestId('poll-now').click();
        return false;
      },
      { timeout: 60_000, intervals: [1000, 2000] },
    )
    .toBe(true);
  await expect(ownRoute.getByTestId('own-view-relayer-delivered')).toHaveText('1');
  await expect(ownView.getByTestId('own-view-warning')).toHaveCount(0);
  const id = sent.messageId.slice(2);
  const count = page.locator('[data-testid="route-failures-row"]').filter({ hasText: 'devnet-a → devnet-b' }).getByTestId('route-failures-count');
  await expect
    .poll(
      async () => {
        if (await count.count()) return true;
        await page.getByTestId('poll-now').click();
        return false;
      },
      { timeout: 60_000, intervals: [1000, 2000] },
    )
    .toBe(true);
  await count.click();
  const row = page.locator(`[data-testid="failed-row"][data-message-id="${id}"]`);
  await row.getByTestId('failed-retry-call').click();
  const call = page.getByTestId('hand-call');
  await expect(call.getByTestId('hand-call-to')).toHaveText(getAddress(b.messenger));
  await expect(call.getByTestId('hand-call-chain')).toHaveText('devnet-b');
  const calldata = (await call.getByTestId('hand-call-calldata').textContent())!.trim() as Hex;
  expect(calldata).toMatch(/^0x[0-9a-f]{8}/);
  await expect(call.getByTestId('hand-call-cast')).toHaveText(
    `cast send ${getAddress(b.messenger)} ${calldata} --rpc-url "$RPC_URL" --private-key "$PRIVATE_KEY"`,
  );
  await expect(call.getByTestId('copy-hand-call-cast')).toBeVisible();

  // The copied call, sent as it is, runs the message.
  const w = b.wallet('sender');
  const hash = await w.client.sendTransaction({ to: getAddress(b.messenger), data: calldata, account: w.account, chain: w.client.chain });
  expect((await b.client.waitForTransactionReceipt({ hash })).status).toBe('success');
  expect(problems).toEqual([]);
});
