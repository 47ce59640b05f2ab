// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { defineComponent, h, nextTick, shallowRef } from 'vue';
import { mount, type VueWrapper } from '@vue/test-utils';
import VirtualRows from '../../src/renderer/src/components/VirtualRows.vue';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

const rows = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => Object.freeze({ id: `${prefix}${i}` }));

/** VirtualRows over `items`, each row a <p> with its text and index. */
function mountList(items = shallowRef(rows('a', 1000))) {
  const Host = defineComponent({
    setup: () => () =>
      h(
        VirtualRows<{ id: string }>,
        { items: items.value, itemHeight: 40, overscan: 2, ref: 'list', style: 'height: 400px' },
        {
          default: ({ item, index }: { item: { id: string }; index: number }) => h('p', { 'data-index': index }, item.id),
        },
      ),
  });
  wrapper = mount(Host, { attachTo: document.body });
  return { w: wrapper, items };
}
const shown = (w: VueWrapper) => w.findAll('p').map((p) => p.text());

describe('VirtualRows', () => {
  it('puts only the rows in view (and the overscan) in the DOM, inside a spacer as tall as all rows', () => {
    const { w } = mountList();
    const n = shown(w).length;
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(60);
    expect(shown(w)[0]).toBe('a0');
    expect((w.get('.vr-spacer').element as HTMLElement).style.height).toBe('40000px');
  });

  it('follows scrolling: the window moves, and the rows sit where they belong', async () => {
    const { w } = mountList();
    const box = w.get('.vr').element as HTMLElement;
    box.scrollTop = 500 * 40;
    await w.get('.vr').trigger('scroll');
    expect(shown(w)[0]).toBe('a498'); // two rows of overscan above
    expect(shown(w)).toContain('a510');
    expect((w.get('.vr-window').element as HTMLElement).style.transform).toBe('translateY(19920px)');
    expect(w.get('p').attributes('data-index')).toBe('498');
  });

  it('patches the same row elements in place when a new result replaces the items', async () => {
    const { w, items } = mountList();
    const before = w.findAll('.vr-item').map((x) => x.element);
    items.value = rows('b', 300);
    await nextTick();
    const after = w.findAll('.vr-item').map((x) => x.element);
    expect(shown(w)[0]).toBe('b0');
    expect(after).toEqual(before);
    expect((w.get('.vr-spacer').element as HTMLElement).style.height).toBe('12000px');
  });

  it('scrolls a keyboard selection into view, moving as little as needed', async () => {
    const { w } = mountList();
    const list = w.findComponent(VirtualRows);
    const box = w.get('.vr').element as HTMLElement;
    (list.vm as unknown as { scrollToIndex(i: number): void }).scrollToIndex(0);
    expect(box.scrollTop).toBe(0);
    (list.vm as unknown as { scrollToIndex(i: number): void }).scrollToIndex(200);
    expect(box.scrollTop).toBeGreaterThan(0);
    expect(box.scrollTop).toBeLessThanOrEqual(200 * 40);
    expect(box.scrollTop + window.innerHeight).toBeGreaterThanOrEqual(201 * 40);
  });
});
