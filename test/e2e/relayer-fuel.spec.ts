import { toFunctionSelector } from 'viem';
import type { CachedMessage, DemoAddresses } from '../../src/shared/contract';
import type { RelayerEconomics } from '../../src/shared/relayers';
import { E2E_API_KEY, expect, screenshot, test, type WebStack } from './fixtures';

// Its own worker and stack: the demo world with one relayer's wallet running dry on one chain.
test.use({ serviceOptions: { dryWallet: true } });

test("the Relayers view: the demo relayers' gas, the dry wallet marked low, earnings per route and failed executions listed", async ({ openApp, stack }) => {
  test.setTimeout(300_000);
  // The wallet the simulator runs dry (its own record, not the app's).
  const dry = stack.service.simulator.wallets.dry;
  expect(dry, 'the demo world has a dry wallet').not.toBeNull();
  const demo = await stack.call<DemoAddresses>('getDemoAddresses');
  expect(demo.relayers.map((r) => r.address.toLowerCase())).toContain(dry!.relayer);

  const page = await openApp('#/relayers');
  // Before anything is watched the panels say what to do.
  await expect(page.getByTestId('fuel-empty')).toContainText('Watch a relayer first');

  // Watch the demo relayers of the dry wallet's two routes (the steady ones deliver on thirty routes each: not needed here),
  // as a newcomer does: one click each.
  const watched = demo.relayers.filter((r) => r.routes.length <= 2);
  expect(watched.map((r) => r.address.toLowerCase())).toContain(dry!.relayer);
  for (const r of watched) {
    const offer = page.locator(`[data-testid="demo-relayer"][data-address="${r.address}"]`);
    await offer.getByTestId('demo-relayer-watch').click();
    await expect(offer).toHaveCount(0, { timeout: 30_000 });
  }

  // Balances are read (the first read of a wallet is due at once) and the dry wallet's fuel alert fires.
  const dryRow = page.locator(`[data-testid="fuel-row"][data-relayer="${dry!.relayer}" i][data-chain="${dry!.blockchainId}"]`);
  await expect(dryRow).toHaveAttribute('data-low', 'true', { timeout: 180_000 });
  await expect(dryRow.getByTestId('fuel-low')).toBeVisible();
  await expect(dryRow.getByTestId('fuel-balance')).not.toContainText('not read yet');
  await expect(dryRow.getByTestId('fuel-read')).not.toContainText('within');
  // A full wallet is never marked low: only the dry one is.
  const rows = page.getByTestId('fuel-row');
  expect(await rows.count()).toBeGreaterThan(1);
  await expect(page.locator('[data-testid="fuel-row"][data-low="true"]')).toHaveCount(1);
  // The page shows what the core holds: the same balance and alert as relayerEconomics answers.
  const economics = await stack.call<RelayerEconomics>('relayerEconomics');
  const dryFuel = economics.fuel.find((f) => f.relayer.toLowerCase() === dry!.relayer && f.blockchainId === dry!.blockchainId)!;
  expect(dryFuel.low).toBe(true);
  expect(dryFuel.balance).not.toBeNull();

  // Earnings: per relayer and route, over the last 24 h. Three deliveries whose execution fails, sent on a route whose
  // every relayer is watched (to Beam: no dry wallet there), are counted and listed with whatever failed on its own.
  const beam = watched.flatMap((r) => r.routes).find((r) => r.destination !== dry!.blockchainId)!;
  const sent = [0, 1, 2].map(() =>
    // Delivered for sure: a drawn outcome leaves 2 % of messages undelivered for good.
    stack.service.simulator.send({ source: beam.source, destination: beam.destination, deliveryDelayMs: 2_000, executed: false, outcome: 'normal' }),
  );
  await page.getByTestId('earnings-window-day').click();
  await expect(page.getByTestId('earnings-table')).toHaveAttribute('data-window', 'day');
  const row = page.locator(`[data-testid="earnings-row"][data-source="${beam.source}"][data-destination="${beam.destination}"]`);
  const failed = row.getByTestId('earnings-failed');
  const list = page.getByTestId('failed-list');
  // Each relayer's row is its own: open them all and find both failed messages, each count listing exactly its messages.
  let listed: string[] = [];
  await expect(async () => {
    listed = [];
    for (const link of await failed.all()) {
      const count = Number(await link.innerText());
      await link.click();
      await expect(list.getByTestId('failed-row')).toHaveCount(count, { timeout: 3_000 });
      listed.push(...(await list.getByTestId('failed-row').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-message-id') ?? ''))));
    }
    expect(listed).toEqual(expect.arrayContaining(sent));
  })
    .toPass({ timeout: 120_000, intervals: [2_000] })
    .catch(async (e: unknown) => {
      // Say where each missing one stands, in the core and at the service, so a failure under load can be told apart.
      const missing = sent.filter((id) => !listed.includes(id));
      const seen = await Promise.all(missing.map((id) => whereIs(stack, id)));
      throw new Error(`${String(e)}\nMissing from the failed lists: ${JSON.stringify(seen)}`);
    });
  // Open the list that holds the first one.
  await expect(async () => {
    for (const link of await failed.all()) {
      await link.click();
      if ((await list.locator(`[data-testid="failed-row"][data-message-id="${sent[0]}"]`).count()) > 0) return;
    }
    throw new Error(`${sent[0]} is in no failed list`);
  }).toPass({ timeout: 30_000 });
  // A listed message opens its detail, where its execution shows as failed.
  const id = sent[0]!;
  await list.locator(`[data-testid="failed-row"][data-message-id="${id}"]`).click();
  await expect(page.getByTestId('detail-message-id')).toContainText(id);
  await expect(page.getByTestId('detail-drawer')).toContainText(/Executed\s*no/);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('detail-drawer')).toHaveCount(0);

  // Per watched route: three failures within the hour reach the default threshold (3), so the route's alert fires.
  const routeRow = page.locator(`[data-testid="route-failures-row"][data-source="${beam.source}"][data-destination="${beam.destination}"]`);
  await expect(routeRow).toHaveAttribute('data-firing', 'true', { timeout: 120_000 });
  await expect(routeRow.getByTestId('route-failures-firing')).toHaveText('Alerting');
  expect(Number(await routeRow.getByTestId('route-failures-count').innerText())).toBeGreaterThanOrEqual(3);

  // The picture: the fuel and earnings panels with the low wallet.
  await page.getByTestId('failed-list-close').click();
  await page.getByTestId('relayer-economics').evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await screenshot(page, 'relayer-fuel');

  // Owed fees (receipts not back): the Receipts call is sendSpecifiedReceipts on the route's destination, with what must follow.
  await page.getByTestId('earnings-receipts-call').first().click();
  const card = page.getByTestId('hand-call');
  await expect(card).toContainText('Send the receipts of');
  await expect(card.getByTestId('hand-call-calldata')).toHaveText(new RegExp(`^${toFunctionSelector(SEND_SPECIFIED_RECEIPTS)}`));
  await expect(card.getByTestId('hand-call-next')).toContainText('a relayer (yours) must deliver it there');
  // Paid fees on the Data API (no credit read): the Redeem call comes with the read to check what is left.
  await page.getByTestId('earnings-paid-redeem-call').first().click();
  await expect(card.getByTestId('hand-call-calldata')).toHaveText(new RegExp(`^${toFunctionSelector('redeemRelayerRewards(address)')}`));
  await expect(card.getByTestId('hand-call-check')).toContainText('checkRelayerRewardAmount(address,address)(uint256)');
  await card.getByTestId('hand-call-close').click();
  await expect(card).toHaveCount(0);
});

const SEND_SPECIFIED_RECEIPTS = 'sendSpecifiedReceipts(bytes32,bytes32[],(address,uint256),address[])';

/** What the core caches of a message (its status, when last seen) and what the service answers for it (status, delivery). */
async function whereIs(stack: WebStack, messageId: string): Promise<unknown> {
  const core = await stack.call<CachedMessage | null>('getMessage', { messageId });
  const res = await fetch(`${stack.service.url}/v1/icm/messages/${messageId}`, { headers: { 'x-glacier-api-key': E2E_API_KEY } });
  const record = res.ok ? ((await res.json()) as { status?: string; destinationTransaction?: unknown }) : null;
  const served = record ? { status: record.status, destinationTransaction: record.destinationTransaction } : { httpStatus: res.status };
  return { messageId, core: core && { status: core.message.status, lastSeenAt: new Date(core.lastSeenAt).toISOString() }, service: served };
}
