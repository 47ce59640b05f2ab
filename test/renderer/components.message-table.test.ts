// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import MessageTable from '../../src/renderer/src/components/MessageTable.vue';
import { message, msgId } from './fixtures';
import { setupRealRenderer } from './real-core';

let wrapper: VueWrapper | undefined;
afterEach(() => wrapper?.unmount());

const shownIds = (w: VueWrapper) => w.findAll('[data-testid="message-row"]').map((r) => r.attributes('data-message-id'));

describe('MessageTable', () => {
  it('sorts by its Time header, newest or oldest first, and says which rows it shows in which order', async () => {
    // The source's own order is not time order (the indexer lists records late).
    const ctx = await setupRealRenderer();
    const rows = [message({ n: 1, at: 1_700_000_200 }), message({ n: 2, at: 1_700_000_900 }), message({ n: 3, at: 1_700_000_500 })];
    wrapper = mount(MessageTable, { props: { messages: rows }, global: { plugins: [ctx.pinia] }, attachTo: document.body });
    expect(shownIds(wrapper)).toEqual([msgId(1), msgId(2), msgId(3)]);

    const header = () => wrapper!.findAll('th').find((th) => th.text().includes('Time'))!;
    await header().trigger('click');
    const first = shownIds(wrapper);
    await header().trigger('click');
    const second = shownIds(wrapper);
    // naive-ui cycles ascend → descend (or descend → ascend): both directions must appear, each in time order.
    const oldest = [msgId(1), msgId(3), msgId(2)];
    const newest = [msgId(2), msgId(3), msgId(1)];
    expect([first, second]).toEqual(expect.arrayContaining([oldest, newest]));
    const orders = wrapper.emitted('order')!.map(([o]) => o);
    expect(orders).toEqual(
      expect.arrayContaining([
        [0, 2, 1],
        [1, 2, 0],
      ]),
    );

    // A third click goes back to the source's order.
    await header().trigger('click');
    expect(shownIds(wrapper)).toEqual([msgId(1), msgId(2), msgId(3)]);
    expect(wrapper.emitted('order')!.at(-1)).toEqual([null]);
  });
});
