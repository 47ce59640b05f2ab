import type { Stats, Transition, WatchedAddress } from '../../src/shared/contract';
import { canvasesSettled, expect, screenshot, test } from './fixtures';

test('a page opened without its token says once how to open the printed URL, and asks nothing', async ({ browser, stack }) => {
  const context = await browser.newContext(); // fresh sessionStorage: no token kept from another test
  const page = await context.newPage();
  const asked: string[] = [];
  const missing: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) asked.push(r.url());
  });
  page.on('websocket', (ws) => asked.push(ws.url()));
  page.on('response', (r) => {
    if (r.status() === 404) missing.push(r.url());
  });
  await page.goto(`${stack.app.host.origin}/#/messages`);
  await expect(page.getByTestId('missing-token')).toBeVisible();
  await expect(page.getByTestId('missing-token')).toContainText('npm run start:web');
  await expect(page.locator('[role="alert"], .n-alert')).toHaveCount(1);
  await expect(page.getByTestId('connection-banner')).toHaveCount(0);
  expect(asked).toEqual([]);
  expect(missing).toEqual([]); // the favicon is inline: no /favicon.ico request
  await context.close();
});

test('screenshots of the local cache and of charts with real transitions', async ({ openApp, stack }) => {
  test.setTimeout(90_000);
  for (const w of await stack.call<WatchedAddress[]>('listWatches')) await stack.call('removeWatch', { address: w.address });
  const busy = stack.service.simulator.hotAddresses[0]!;
  await stack.call('addWatch', {
    address: busy,
    label: 'Demo busy address 1',
    notify: { new: false, left_pending: false, receipt_delivered: false, stuck: false },
  });
  try {
    // Polls run every 5 s; the busy address's next messages move within seconds at the stack's speed.
    await expect
      .poll(async () => (await stack.call<{ items: Transition[] }>('listTransitions', { limit: 20 })).items.length, { timeout: 60_000 })
      .toBeGreaterThan(5);
    const stats = await stack.call<Stats>('getStats', { hours: 24 });
    const total = stats.buckets.reduce((n, b) => n + b.new + b.left_pending + b.receipt_delivered + b.stuck, 0);
    expect(total).toBeGreaterThan(0);

    const page = await openApp('#/cache');
    await expect(page.getByTestId('view-cache')).toBeVisible();
    await expect(page.getByTestId('cache-total')).toContainText(/match/);
    await screenshot(page, 'cache');
    await page.getByTestId('nav-charts').click();
    await expect(page.getByTestId('chart-transitions')).toBeVisible();
    // The picture must show transitions: the figure on the page is the sum of the buckets.
    await expect.poll(async () => Number(await page.getByTestId('charts-total').getAttribute('data-total'))).toBeGreaterThan(0);
    await canvasesSettled(page); // the charts animate in
    await screenshot(page, 'charts');
  } finally {
    await stack.call('removeWatch', { address: busy });
  }
});
