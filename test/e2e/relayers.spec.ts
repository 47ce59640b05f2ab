import type { Locator, Page } from '@playwright/test';
import type { SavedFeed } from '../../src/shared/contract';
import type { RelayerOverview, WatchedRelayer, WatchedRoute } from '../../src/shared/relayers';
import { expect, screenshot, test } from './fixtures';

const QUIET = { new: false, left_pending: false, receipt_delivered: false, stuck: false };

/**
 * Clicks a figure and expects the list below the tables to hold exactly that many rows. A poll cycle
 * (every 5 s) may move the figure between reading it and the list's answer, so a mismatch reads both again.
 */
async function clickThroughMatches(page: Page, figure: Locator): Promise<number> {
  let shown = -1;
  await expect(async () => {
    shown = Number(await figure.innerText());
    await figure.click();
    const counted = page.getByTestId('relayer-counted');
    await expect(counted).toBeVisible();
    await expect(counted.getByTestId('relayer-counted-row')).toHaveCount(shown, { timeout: 3_000 });
    expect(Number(await figure.innerText())).toBe(shown);
  }).toPass({ timeout: 30_000 });
  return shown;
}

test('the Relayers view: watched routes and a relayer, each number lists exactly the messages it counts', async ({ openApp, stack }) => {
  test.setTimeout(180_000);
  // The realistic world's busy mainnet routes, from the service's own description of itself.
  const info = (await (await fetch(`${stack.service.url}/_local/info`)).json()) as { routes: { busy: { source: string; destination: string }[] } };
  const mainnet = new Set(['2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5']);
  const busy = info.routes.busy.filter((r) => mainnet.has(r.source) || mainnet.has(r.destination)).slice(0, 2);
  expect(busy).toHaveLength(2);

  const routes: WatchedRoute[] = [];
  const feeds: SavedFeed[] = [];
  let relayer: string | null = null;
  try {
    for (const [i, r] of busy.entries()) {
      routes.push(await stack.call<WatchedRoute>('addRoute', { source: r.source, destination: r.destination }));
      // until routes are planned: a feed on the route has the poller read its messages (notifications off).
      feeds.push(
        await stack.call<SavedFeed>('addFeed', {
          name: `e2e route ${i + 1}`,
          filter: { sourceBlockchainId: r.source, destinationBlockchainId: r.destination },
          notify: QUIET,
        }),
      );
    }
    // The figures come from the kept messages: wait until both routes have deliveries and a relayer shows.
    const overview = async () => stack.call<RelayerOverview>('relayerOverview');
    await expect.poll(async () => (await overview()).routes.filter((r) => r.deliveries24h > 0).length, { timeout: 90_000, intervals: [1000] }).toBe(2);
    const top = (await overview()).relayers[0]!;
    relayer = top.address;
    await stack.call<WatchedRelayer>('addRelayer', { address: relayer, label: 'Top relayer' });

    const page = await openApp('#/relayers');
    await expect(page.getByTestId('view-relayers')).toBeVisible();
    await expect(page.getByTestId('route-row')).toHaveCount(2);
    const watchedRow = page.locator(`[data-testid="relayer-row"][data-address="${relayer}"]`);
    await expect(watchedRow).toHaveAttribute('data-watched', 'true');
    await expect(watchedRow).toContainText('Top relayer');

    const route = page.getByTestId('route-row').first();
    expect(await clickThroughMatches(page, route.getByTestId('route-deliveries-24h'))).toBeGreaterThan(0);
    await clickThroughMatches(page, route.getByTestId('route-pending'));
    expect(await clickThroughMatches(page, watchedRow.getByTestId('relayer-deliveries-24h'))).toBeGreaterThan(0);
    // A listed message opens its detail.
    const first = page.getByTestId('relayer-counted-row').first();
    const id = (await first.getAttribute('data-message-id'))!;
    await first.click();
    await expect(page.getByTestId('detail-message-id')).toContainText(id);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('detail-drawer')).toHaveCount(0);
    // The picture shows both tables (the forms above, the counted list closed).
    await page.getByTestId('relayer-counted-close').click();
    await page
      .getByTestId('view-relayers')
      .locator('h3')
      .first()
      .evaluate((h) => h.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'relayers');
  } finally {
    if (relayer) await stack.call('removeRelayer', { address: relayer });
    for (const f of feeds) await stack.call('removeFeed', { id: f.id });
    for (const r of routes) await stack.call('removeRoute', { id: r.id });
  }
});
