import type { DemoAddresses } from '../../src/shared/contract';
import type { RelayerEconomics } from '../../src/shared/relayers';
import { expect, screenshot, test } from './fixtures';

// Its own worker and stack: the demo world with one relayer's wallet running dry on one chain, and
// traffic fast enough that some deliveries' executions fail (about 1 %) within a few minutes.
test.use({ serviceOptions: { dryWallet: true, rate: 4 } });

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

  // Earnings: per relayer and route, over the last 24 h; a failed execution's count lists exactly its messages.
  await page.getByTestId('earnings-window-day').click();
  await expect(page.getByTestId('earnings-table')).toHaveAttribute('data-window', 'day');
  await expect(page.getByTestId('earnings-row').first()).toBeVisible({ timeout: 60_000 });
  const failed = page.getByTestId('earnings-failed').first();
  await expect(failed).toBeVisible({ timeout: 180_000 });
  // A poll cycle (every 5 s) may move the count between reading it and the click: a mismatch reads both again.
  const list = page.getByTestId('failed-list');
  await expect(async () => {
    const count = Number(await failed.innerText());
    expect(count).toBeGreaterThan(0);
    await failed.click();
    await expect(list).toBeVisible();
    await expect(list.getByTestId('failed-row')).toHaveCount(count, { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  // A listed message opens its detail, where its execution shows as failed.
  const first = list.getByTestId('failed-row').first();
  const id = (await first.getAttribute('data-message-id'))!;
  await first.click();
  await expect(page.getByTestId('detail-message-id')).toContainText(id);
  await expect(page.getByTestId('detail-drawer')).toContainText(/Executed\s*no/);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('detail-drawer')).toHaveCount(0);

  // The picture: the fuel and earnings panels with the low wallet.
  await page.getByTestId('failed-list-close').click();
  await page.getByTestId('relayer-economics').evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await screenshot(page, 'relayer-fuel');
});
