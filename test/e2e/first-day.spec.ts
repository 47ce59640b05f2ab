/**
 * Issue 43, an operator's first day: every view of the demo, with a watched address and two watched
 * routes, at 1,280 and 1,920 px wide: no sideways scroll, the Message ID column whole, one word per event
 * and no raw enum anywhere a person reads. The pictures in docs/screenshots/<view>-<width>.png come from here.
 */
import type { Page } from '@playwright/test';
import type { Transition, WatchedAddress } from '../../src/shared/contract';
import type { WatchedRoute } from '../../src/shared/relayers';
import { EVENT_VOCABULARY, RETIRED_EVENT_WORDS } from '../../src/shared/vocabulary';
import { canvasesSettled, expect, screenshot, test } from './fixtures';
import { attributes, clipboardText, readableText, sidewaysOverflow } from './page-text';

/** Every view, in the nav's order (src/renderer/src/stores/ui.ts VIEWS; the renderer's modules need a DOM). */
const VIEWS = ['messages', 'watchlist', 'activity', 'cache', 'charts', 'settings', 'relayers'] as const;
type ViewName = (typeof VIEWS)[number];

const WIDTHS = [1280, 1920] as const;
/** A raw enum as the code spells it: lower-case words joined by underscores (`delivered_source_not_indexed`). */
const RAW_TOKEN = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;

let routes: WatchedRoute[] = [];
let busy = '';

test.beforeAll(async ({ stack }) => {
  test.setTimeout(120_000);
  for (const w of await stack.call<WatchedAddress[]>('listWatches')) await stack.call('removeWatch', { address: w.address });
  busy = stack.service.simulator.hotAddresses[0]!;
  await stack.call('addWatch', { address: busy, label: 'Demo busy address 1' });
  // Two of the realistic world's busy mainnet routes (as a demo relayer's offer watches them).
  const info = (await (await fetch(`${stack.service.url}/_local/info`)).json()) as { routes: { busy: { source: string; destination: string }[] } };
  const cChain = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
  const two = info.routes.busy.filter((r) => r.source === cChain || r.destination === cChain).slice(0, 2);
  expect(two).toHaveLength(2);
  routes = [];
  for (const r of two) routes.push(await stack.call<WatchedRoute>('addRoute', { source: r.source, destination: r.destination }));
  // Activity and Charts have something to show: the busy address's messages move within seconds here.
  await expect
    .poll(async () => (await stack.call<{ items: Transition[] }>('listTransitions', { limit: 20 })).items.length, { timeout: 90_000 })
    .toBeGreaterThan(5);
});

test.afterAll(async ({ stack }) => {
  for (const r of routes) await stack.call('removeRoute', { id: r.id });
  if (busy) await stack.call('removeWatch', { address: busy });
});

/** Opens a view from the nav and waits until it shows what it is for (rows, a chart, a form). */
async function openView(page: Page, view: ViewName): Promise<void> {
  await page.getByTestId(`nav-${view}`).click();
  await expect(page.getByTestId(`view-${view}`)).toBeVisible();
  if (view === 'messages') await expect(page.getByTestId('message-row').first()).toBeVisible();
  if (view === 'watchlist') await expect(page.getByTestId('watch-row')).toHaveCount(1);
  if (view === 'activity') await expect(page.getByTestId('transition-row').first()).toBeVisible();
  if (view === 'cache') await expect(page.getByTestId('cache-row').first()).toBeVisible();
  if (view === 'charts') {
    await expect(page.getByTestId('chart-transitions')).toBeVisible();
    await canvasesSettled(page);
  }
  if (view === 'relayers') await expect(page.getByTestId('route-row')).toHaveCount(2);
  if (view === 'settings') await expect(page.getByTestId('settings-save')).toBeVisible();
}

test('every view holds at 1,280 and 1,920 px: no sideways scroll, the Message ID whole, the status bar names what it watches', async ({ openApp, stack }) => {
  test.setTimeout(300_000);
  const page = await openApp('#/messages');
  await expect(page.locator('nav [data-testid^="nav-"]:not([data-testid$="-badge"])')).toHaveCount(VIEWS.length); // no view left out
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 860 });
    for (const view of VIEWS) {
      await openView(page, view);
      expect(await sidewaysOverflow(page), `${view} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
      // The Relayers picture shows its tables, not only the forms above them.
      if (view === 'relayers') await page.getByTestId('routes-table').evaluate((t) => t.scrollIntoView({ block: 'start' }));
      await screenshot(page, `${view}-${width}`);
    }
    // The Message ID column is on screen, shortened, with its whole value in its title and a copy button.
    await openView(page, 'messages');
    const id = page.getByTestId('message-row').first().getByTestId('short-id').first();
    const box = (await id.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    const full = (await id.getAttribute('data-full'))!;
    expect(full).toMatch(/^(0x)?[0-9a-f]{64}$/i);
    await expect(id.locator('code')).toHaveAttribute('title', full);
    expect((await id.locator('code').innerText()).length).toBeLessThan(20);
  }
  // Warnings stay until closed: with a 1-minute stuck threshold the busy address's slow messages raise several.
  // However many, the strip shows two and "N more", and the page still does not scroll sideways.
  await page.setViewportSize({ width: 1280, height: 860 });
  await openView(page, 'activity');
  await stack.call('updateSettings', { stuckThresholdMinutes: 1 });
  // Five messages the simulator never delivers, listed at once: each is stuck a minute after it was sent.
  for (let i = 0; i < 5; i++) stack.service.simulator.send({ network: 'mainnet', from: busy, outcome: 'undelivered', lagMs: 0 });
  try {
    await expect.poll(() => page.locator('[data-testid="toast"][data-severity="warning"]').count(), { timeout: 150_000, intervals: [1000] }).toBe(2);
    await expect
      .poll(async () => Number(await page.getByTestId('toasts').getAttribute('data-count')), { timeout: 150_000, intervals: [1000] })
      .toBeGreaterThanOrEqual(4);
    await expect(page.getByTestId('toasts-more')).toBeVisible();
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'toasts-1280');
    await page.getByTestId('toasts-more').click();
    await expect(page.locator('[data-testid="toast"]')).toHaveCount(Number(await page.getByTestId('toasts').getAttribute('data-count')));
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await page.getByTestId('toasts-dismiss-all').click();
    await expect(page.getByTestId('toasts')).toHaveCount(0);
  } finally {
    await stack.call('updateSettings', { stuckThresholdMinutes: 30 });
  }
  // "watching …" says what it counts, and the Watchlist lists the one address it counts.
  await expect(page.getByTestId('poll-watching')).toHaveText('watching 1 address, 2 routes');
  await openView(page, 'watchlist');
  await expect(page.getByTestId('watch-row')).toHaveCount(1);
});

test("a long ID's copy button puts the whole value on the clipboard, and does not open the row", async ({ openApp, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await openApp('#/messages');
  const row = page.getByTestId('message-row').first();
  const full = (await row.getAttribute('data-message-id'))!;
  await row.getByTestId('copy-message-id').click();
  await expect(row.getByTestId('copy-message-id')).toHaveAttribute('data-copied', 'copied');
  expect(await clipboardText(page)).toBe(full);
  await expect(page.getByTestId('detail-drawer')).toHaveCount(0);
});

test('one vocabulary: no raw enum and no word outside the vocabulary for an event, in any view', async ({ openApp }) => {
  test.setTimeout(90_000);
  const page = await openApp('#/messages');
  const counted = new Map<string, number>();
  const check = async (where: string) => {
    const text = await readableText(page);
    expect(text.match(RAW_TOKEN) ?? [], `raw enum tokens in ${where}`).toEqual([]);
    for (const w of RETIRED_EVENT_WORDS) expect(text.toLowerCase(), `"${w}" in ${where}`).not.toContain(w);
    const words = await page.locator('[data-event-word]').allInnerTexts();
    expect(
      words.map((w) => w.trim()).filter((w) => !EVENT_VOCABULARY.has(w)),
      `event words outside the vocabulary in ${where}`,
    ).toEqual([]);
    counted.set(where, words.length);
  };
  for (const view of VIEWS) {
    await openView(page, view);
    await check(view);
  }
  // The Charts legend is drawn on a canvas: its aria label names the series in the same words.
  await openView(page, 'charts');
  await expect(page.getByTestId('chart-transitions').locator('[aria-label]').first()).toHaveAttribute('aria-label', /receipt delivered/);
  // The Watchlist's notify tags and the edit dialog, and a message's detail.
  await openView(page, 'watchlist');
  await expect(page.getByTestId('watch-notify-tag').first()).toBeVisible();
  await page.getByTestId('watch-edit').click();
  await expect(page.getByTestId('watch-edit-dialog')).toBeVisible();
  await check('watch edit dialog');
  await page.keyboard.press('Escape');
  await openView(page, 'activity');
  await page.getByTestId('transition-row').first().click();
  await expect(page.getByTestId('message-detail')).toBeVisible();
  await check('message detail');
  // The views that name events had words to check (the test cannot pass on pages that never showed them).
  for (const where of ['watchlist', 'activity', 'settings', 'watch edit dialog']) expect(counted.get(where), where).toBeGreaterThan(3);
});

test('Activity: column headers, sorted by time, kind or route, filtered by kind and by a search', async ({ openApp }) => {
  const page = await openApp('#/activity');
  const table = page.getByTestId('activity-table');
  await expect(page.getByTestId('transition-row').first()).toBeVisible();
  await expect(table.locator('th')).toHaveText(['Time', 'Kind', 'Route', 'What', 'Message ID', 'Watched by']);
  const ROWS = '[data-testid="activity-table"] :is([data-testid="transition-row"], [data-testid="alert-row"])';
  const times = async () => (await attributes(page, ROWS, 'data-at')).map(Number);
  const column = async (i: number) => (await page.locator(`${ROWS} > td:nth-child(${i + 1})`).allInnerTexts()).map((t) => t.trim());
  const sorted = (xs: string[]) => [...xs].sort((a, b) => a.localeCompare(b));

  // Newest first by default; a click on Time turns it oldest first.
  const first = await times();
  expect(first).toEqual([...first].sort((a, b) => b - a));
  await table.locator('th', { hasText: 'Time' }).click();
  await expect
    .poll(async () => {
      const t = await times();
      return t.every((x, i) => i === 0 || t[i - 1]! <= x);
    })
    .toBe(true);
  await table.locator('th', { hasText: 'Kind' }).click();
  await expect
    .poll(async () => {
      const k = await column(1);
      return k.join('|') === sorted(k).join('|') && new Set(k).size > 1;
    })
    .toBe(true);
  await table.locator('th', { hasText: 'Kind' }).click(); // again: Z to A
  await expect
    .poll(async () => {
      const k = await column(1);
      return k.join('|') === sorted(k).reverse().join('|');
    })
    .toBe(true);
  await table.locator('th', { hasText: 'Route' }).click();
  await expect
    .poll(async () => {
      const r = await column(2);
      return r.join('|') === sorted(r).join('|');
    })
    .toBe(true);

  // A kind filter: only "receipt delivered" rows are left.
  for (const k of ['new', 'left_pending', 'stuck']) await page.getByTestId(`activity-kind-${k}`).click();
  await expect(page.locator('[data-testid="transition-row"]:not([data-kind="receipt_delivered"])')).toHaveCount(0);
  await expect(page.locator('[data-testid="transition-row"][data-kind="receipt_delivered"]').first()).toBeVisible();
  for (const k of ['new', 'left_pending', 'stuck']) await page.getByTestId(`activity-kind-${k}`).click();

  // A search by a message ID keeps that message's rows only.
  const id = (await page.getByTestId('transition-row').first().getAttribute('data-message-id'))!;
  await page.getByTestId('activity-search').fill(id.slice(0, 12));
  await expect(page.locator(`[data-testid="transition-row"]:not([data-message-id="${id}"])`)).toHaveCount(0);
  await expect(page.locator(`[data-testid="transition-row"][data-message-id="${id}"]`).first()).toBeVisible();
  await expect(page.getByTestId('activity-matches')).toContainText('of');
});
