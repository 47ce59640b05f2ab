// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import CacheView from '../../src/renderer/src/views/CacheView.vue';
import { CACHE_PAGE } from '../../src/renderer/src/logic/cache-page';
import { useUiStore } from '../../src/renderer/src/stores/ui';
import { fillCache, setupRealRenderer, until } from './real-core';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

/** CacheView over a real cache of 300 Beam then 150 DFK messages; `sent` is their IDs, oldest first. */
async function mountView() {
  const ctx = await setupRealRenderer();
  const sent = await fillCache(ctx, 300, 150);
  wrapper = mount(CacheView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
  await until(() => expect(wrapper!.get('[data-testid="cache-total"]').attributes('data-total')).toBe('450'));
  return { ...ctx, sent, w: wrapper };
}
const rows = (w: VueWrapper) => w.findAll('[data-testid="cache-row"]');

describe('CacheView', () => {
  it('shows the first page in a virtual list: only about a screen of rows is in the DOM', async () => {
    const { w, sent } = await mountView();
    expect(rows(w).length).toBeGreaterThan(5);
    expect(rows(w).length).toBeLessThan(CACHE_PAGE);
    expect(rows(w)[0]!.attributes('data-message-id')).toBe(sent.at(-1)); // newest first
  });

  it('has column headers, and the labelled time column sorts oldest or newest first (the core pages in that order)', async () => {
    const { w, transport, sent } = await mountView();
    expect(w.findAll('[data-testid="cache-head"] [role="columnheader"]').map((h) => h.text())).toEqual([
      'Status',
      'Route',
      'Message ID',
      'Sender',
      'Sent ↓ newest first',
    ]);
    const sort = () => w.get('[data-testid="cache-sort-time"]');
    await sort().trigger('click');
    await until(() => expect(rows(w)[0]!.attributes('data-message-id')).toBe(sent[0]));
    expect(sort().attributes('data-order')).toBe('oldest');
    expect(rows(w)[1]!.attributes('data-message-id')).toBe(sent[1]);
    expect(transport.callsOf('searchCache').at(-1)).toEqual({ limit: CACHE_PAGE, offset: 0, order: 'oldest' });
    await w.get('[data-testid="cache-filter"]').setValue('dfk'); // a filter keeps the order: the oldest DFK message first
    await until(() => expect(rows(w)[0]!.attributes('data-message-id')).toBe(sent[300]));
    await sort().trigger('click');
    await until(() => expect(rows(w)[0]!.attributes('data-message-id')).toBe(sent.at(-1)));
  });

  it('filters as the user types, patching the same rows in place, and clears with the button', async () => {
    const { w, transport, sent } = await mountView();
    const before = rows(w).map((r) => r.element);
    await w.get('[data-testid="cache-filter"]').setValue('dfk');
    await until(() => expect(w.get('[data-testid="cache-total"]').attributes('data-total')).toBe('150'));
    await until(() => expect(rows(w)[0]!.attributes('data-message-id')).toBe(sent.at(-1)));
    expect(transport.callsOf('searchCache').at(-1)).toEqual({ text: 'dfk', limit: CACHE_PAGE, offset: 0 });
    expect(rows(w).map((r) => r.element)).toEqual(before);
    await w.get('button[aria-label="Clear the filter"]').trigger('click');
    await until(() => expect(w.get('[data-testid="cache-total"]').attributes('data-total')).toBe('450'));
  });

  it('opens a row with its full record, fetched from the core (rows carry a summary only)', async () => {
    const { w, transport, api } = await mountView();
    const id = rows(w)[2]!.attributes('data-message-id')!;
    await rows(w)[2]!.trigger('click');
    const ui = useUiStore();
    await until(() => expect(ui.detail?.messageId).toBe(id));
    expect(transport.callsOf('getMessage')).toEqual([{ messageId: id }]);
    expect(ui.detailOpen).toBe(true);
    expect(ui.detail).toEqual((await api.getMessage({ messageId: id }))!.message);
    expect(rows(w)[2]!.classes()).toContain('selected');
  });

  it('marks the count busy while a search is in flight, and shows a spinner only once it is slow', async () => {
    const { w, transport } = await mountView();
    const meta = () => w.get('[data-testid="cache-meta"]');
    const spinner = () => w.find('[data-testid="cache-loading"]').exists();
    expect(meta().attributes('aria-busy')).toBe('false');
    const release = transport.hold('searchCache');
    // Only the spinner's delay runs on a timer: fake it, so the 250 ms threshold is exact on any machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await w.get('[data-testid="cache-filter"]').setValue('dfk');
      expect(meta().attributes('aria-busy')).toBe('true');
      await vi.advanceTimersByTimeAsync(249);
      expect(spinner()).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(spinner()).toBe(true);
    } finally {
      vi.useRealTimers();
    }
    release();
    await until(() => expect(meta().attributes('aria-busy')).toBe('false'));
    expect(w.find('[data-testid="cache-loading"]').exists()).toBe(false);
    expect(w.get('[data-testid="cache-total"]').attributes('data-total')).toBe('150');
  });

  it('loads the next page as the list is scrolled near its end', async () => {
    const { w, transport } = await mountView();
    const box = w.get('[data-testid="cache-list"]');
    (box.element as HTMLElement).scrollTop = 5 * 44;
    await box.trigger('scroll');
    expect(transport.callsOf('searchCache')).toHaveLength(1); // far from the end: nothing more yet
    (box.element as HTMLElement).scrollTop = (CACHE_PAGE - 10) * 44;
    await box.trigger('scroll');
    await until(() => expect(w.findComponent({ name: 'VirtualRows' }).props('items')).toHaveLength(2 * CACHE_PAGE));
    expect(transport.callsOf('searchCache').at(-1)).toEqual({ limit: CACHE_PAGE, offset: CACHE_PAGE });
    expect(w.findComponent({ name: 'VirtualRows' }).props('items')).toHaveLength(2 * CACHE_PAGE);
  });

  it('says what to do when nothing matches', async () => {
    const { w } = await mountView();
    await w.get('[data-testid="cache-filter"]').setValue('no-such-thing');
    await until(() => expect(w.find('[data-testid="cache-empty"]').exists()).toBe(true));
    expect(w.get('[data-testid="cache-empty"]').text()).toMatch(/No observed message matches/);
    expect(rows(w)).toHaveLength(0);
  });
});
