// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import CacheView from '../../src/renderer/src/views/CacheView.vue';
import { CACHE_PAGE } from '../../src/renderer/src/logic/cache-page';
import { useUiStore } from '../../src/renderer/src/stores/ui';
import { BEAM, DFK, message } from './fixtures';
import { flush, setupRenderer } from './setup';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

const cached = Array.from({ length: 450 }, (_, i) => ({ message: message({ n: i + 1, dst: i < 300 ? BEAM : DFK }), network: 'mainnet' as const }));

async function mountView() {
  const ctx = setupRenderer({ messages: cached });
  wrapper = mount(CacheView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
  await flush();
  return { ...ctx, w: wrapper };
}
const rows = (w: VueWrapper) => w.findAll('[data-testid="cache-row"]');

describe('CacheView', () => {
  it('shows the first page in a virtual list: only about a screen of rows is in the DOM', async () => {
    const { w } = await mountView();
    expect(w.get('[data-testid="cache-total"]').attributes('data-total')).toBe('450');
    expect(rows(w).length).toBeGreaterThan(5);
    expect(rows(w).length).toBeLessThan(CACHE_PAGE);
    expect(rows(w)[0]!.attributes('data-message-id')).toBe(cached[0]!.message.messageId);
  });

  it('filters as the user types, patching the same rows in place, and clears with the button', async () => {
    const { w, fake } = await mountView();
    const before = rows(w).map((r) => r.element);
    await w.get('[data-testid="cache-filter"]').setValue('dfk');
    await flush();
    expect(fake.callsOf('searchCache').at(-1)).toEqual({ text: 'dfk', limit: CACHE_PAGE, offset: 0 });
    expect(w.get('[data-testid="cache-total"]').attributes('data-total')).toBe('150');
    expect(rows(w)[0]!.attributes('data-message-id')).toBe(cached[300]!.message.messageId);
    expect(rows(w).map((r) => r.element)).toEqual(before);
    await w.get('button[aria-label="Clear the filter"]').trigger('click');
    await flush();
    expect(w.get('[data-testid="cache-total"]').attributes('data-total')).toBe('450');
  });

  it('opens a row with its full record, fetched from the core (rows carry a summary only)', async () => {
    const { w, fake } = await mountView();
    await rows(w)[2]!.trigger('click');
    await flush();
    const id = cached[2]!.message.messageId;
    expect(fake.callsOf('getMessage')).toEqual([{ messageId: id }]);
    const ui = useUiStore();
    expect(ui.detailOpen).toBe(true);
    expect(ui.detail).toEqual(cached[2]!.message);
    expect(rows(w)[2]!.classes()).toContain('selected');
  });

  it('marks the count busy while a search is in flight, and shows a spinner only once it is slow', async () => {
    const { w, fake } = await mountView();
    const meta = () => w.get('[data-testid="cache-meta"]');
    const spinner = () => w.find('[data-testid="cache-loading"]').exists();
    expect(meta().attributes('aria-busy')).toBe('false');
    const release = fake.hold('searchCache');
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
    await flush();
    expect(meta().attributes('aria-busy')).toBe('false');
    expect(w.find('[data-testid="cache-loading"]').exists()).toBe(false);
    expect(w.get('[data-testid="cache-total"]').attributes('data-total')).toBe('150');
  });

  it('loads the next page as the list is scrolled near its end', async () => {
    const { w, fake } = await mountView();
    const box = w.get('[data-testid="cache-list"]');
    (box.element as HTMLElement).scrollTop = 5 * 44;
    await box.trigger('scroll');
    expect(fake.callsOf('searchCache')).toHaveLength(1); // far from the end: nothing more yet
    (box.element as HTMLElement).scrollTop = (CACHE_PAGE - 10) * 44;
    await box.trigger('scroll');
    await flush();
    expect(fake.callsOf('searchCache').at(-1)).toEqual({ limit: CACHE_PAGE, offset: CACHE_PAGE });
    expect(w.findComponent({ name: 'VirtualRows' }).props('items')).toHaveLength(2 * CACHE_PAGE);
  });

  it('says what to do when nothing matches', async () => {
    const { w } = await mountView();
    await w.get('[data-testid="cache-filter"]').setValue('no-such-thing');
    await flush();
    expect(w.get('[data-testid="cache-empty"]').text()).toMatch(/No observed message matches/);
    expect(rows(w)).toHaveLength(0);
  });
});
