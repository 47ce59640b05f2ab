import type { WatchedAddress } from '../../src/shared/contract';
import { expect, inputsSent, screenshot, test } from './fixtures';

/** The spec's own time, and what each wait below may take of it (their sum stays inside it). */
const SPEC_MS = 180_000;
const BASELINE_MS = 30_000;
const CHANGE_MS = 40_000;

// Asserts on the transition log as Activity shows it, never on toasts (they live 8 s and are merged
// when more than three arrive). The core polls every 5 s on this stack; no wait relies on a click.
test('watches an address and sees its message leave pending and get its receipt', async ({ openApp, stack }) => {
  test.setTimeout(SPEC_MS);
  // An address the simulator really uses, from the service's own description of itself.
  const info = (await (await fetch(`${stack.service.url}/_local/info`)).json()) as { addresses: string[]; hotAddresses: string[] };
  const address = info.addresses.find((a) => !info.hotAddresses.includes(a))!;
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);

  // Start from an empty watchlist (a repeat of this spec on the worker's stack left its watch).
  for (const w of await stack.call<WatchedAddress[]>('listWatches')) await stack.call('removeWatch', { address: w.address });

  const page = await openApp('#/watchlist');
  await expect(page.getByTestId('view-watchlist')).toBeVisible();
  await page.getByTestId('watch-address').fill(address);
  await page.getByTestId('watch-label').fill('Demo treasury');
  await page.getByTestId('watch-notify-new').click();
  await page.getByTestId('watch-add').click();
  const row = page.locator(`[data-testid="watch-row"][data-address="${address}"]`);
  await expect(row).toContainText('Demo treasury');

  // Its history is taken silently first (no flood of "new" for old messages).
  await expect
    .poll(async () => (await stack.call<WatchedAddress[]>('listWatches')).find((w) => w.address === address)?.baselinePending, { timeout: BASELINE_MS })
    .toBe(false);

  // Delivered 20 s after sending (a poll every 5 s sees it pending first), its receipt 4 s later.
  // outcome 'normal': never one of the simulator's stuck or source-not-indexed messages; lagMs 0: its
  // changes are listed at once, never in the realistic world's tail of minutes-late records.
  const messageId = stack.service.simulator.send({
    network: 'mainnet',
    from: address,
    outcome: 'normal',
    deliveryDelayMs: 20_000,
    receiptDelayMs: 4_000,
    lagMs: 0,
  });

  await page.getByTestId('nav-activity').click();
  const ofKind = (kind: string) => page.locator(`[data-testid="transition-row"][data-kind="${kind}"][data-message-id="${messageId}"]`);
  // Activity's words (src/shared/vocabulary.ts): a first sighting, a move, and a receipt said as such.
  // A poll held back by the rate limit may first see the message delivered: one row then says both.
  await expect(ofKind('new')).toContainText(/first seen (pending|delivered)/, { timeout: CHANGE_MS });
  await expect(ofKind('left_pending')).toContainText(/pending → delivered|first seen delivered/, { timeout: CHANGE_MS });
  await expect(ofKind('receipt_delivered')).toContainText('receipt delivered', { timeout: CHANGE_MS });
  await expect(page.locator(`[data-testid="transition-row"][data-message-id="${messageId}"]`)).toHaveCount(3);
  await screenshot(page, 'activity');

  // Its own message list, the new message in it.
  await page.getByTestId('nav-watchlist').click();
  await row.getByTestId('watch-open').click();
  await expect(page.getByTestId('address-messages').locator(`[data-testid="message-row"][data-message-id="${messageId}"]`)).toBeVisible();
  await screenshot(page, 'watchlist');
});

test('refuses an address with a broken checksum at the field, without a request', async ({ openApp, stack }) => {
  const page = await openApp('#/watchlist');
  await page.getByTestId('watch-address').fill('0x253b2784c75e510dD0fF1da844684a1aC0aa5fCF');
  await page.getByTestId('watch-add').click();
  await expect(page.getByTestId('field-error-address')).toContainText(/checksum/i);
  // Corrected, the form sends its one call; had the refused one gone out, it would be recorded before it.
  const valid = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf';
  await page.getByTestId('watch-address').fill(valid);
  await page.getByTestId('watch-add').click();
  try {
    await expect(page.locator(`[data-testid="watch-row"][data-address="${valid}"]`)).toBeVisible();
    expect(inputsSent(page, 'addWatch').map((i) => (i as { address: string }).address)).toEqual([valid]);
  } finally {
    await stack.call('removeWatch', { address: valid });
  }
});
