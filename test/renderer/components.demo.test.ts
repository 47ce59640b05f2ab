// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import WatchlistView from '../../src/renderer/src/views/WatchlistView.vue';
import MessageTable from '../../src/renderer/src/components/MessageTable.vue';
import { useDemoStore } from '../../src/renderer/src/stores/demo';
import { useWatchlistStore } from '../../src/renderer/src/stores/watchlist';
import { addr, message } from './fixtures';
import { flush, setupRenderer } from './setup';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

const busy = [addr(101), addr(102), addr(103)];

describe('demo busy addresses', () => {
  it('the empty Watchlist offers "Watch a demo address", which watches the busiest one with a label', async () => {
    const ctx = setupRenderer();
    ctx.fake.demoAddresses = busy;
    await useDemoStore().load();
    wrapper = mount(WatchlistView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    await flush();
    await wrapper.get('[data-testid="watch-demo"]').trigger('click');
    await flush();
    expect(ctx.fake.callsOf('addWatch')).toEqual([{ address: busy[0], label: 'Demo busy address 1' }]);
    expect(wrapper.findAll('[data-testid="watch-row"]').map((r) => r.attributes('data-address'))).toEqual([busy[0]]);
    expect(wrapper.find('[data-testid="watch-demo"]').exists()).toBe(false);
  });

  it('offers Watch in the address cells of demo addresses only, until watched', async () => {
    const ctx = setupRenderer();
    ctx.fake.demoAddresses = busy;
    await useDemoStore().load();
    await useWatchlistStore().load();
    const rows = [message({ n: 1, from: busy[1] }), message({ n: 2 })];
    wrapper = mount(MessageTable, { props: { messages: rows }, global: { plugins: [ctx.pinia] }, attachTo: document.body });
    await flush();
    const offers = wrapper.findAll('[data-testid="watch-demo-cell"]');
    expect(offers).toHaveLength(1);
    await offers[0]!.trigger('click');
    await flush();
    expect(ctx.fake.callsOf('addWatch')).toEqual([{ address: busy[1], label: 'Demo busy address 2' }]);
    expect(wrapper.findAll('[data-testid="watch-demo-cell"]')).toHaveLength(0);
    // Clicking the button did not open the row.
    expect(wrapper.emitted('open')).toBeUndefined();
  });

  it('offers nothing once the data source is a real API', async () => {
    const ctx = setupRenderer();
    ctx.fake.demoAddresses = busy;
    ctx.fake.settings = { ...ctx.fake.settings, dataSource: { kind: 'avalanche' } };
    await useDemoStore().load();
    wrapper = mount(WatchlistView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    await flush();
    expect(wrapper.find('[data-testid="watchlist-empty"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="watch-demo"]').exists()).toBe(false);
  });

  it('after a switch to a real source, offers to remove the demo addresses left on the watchlist', async () => {
    const ctx = setupRenderer();
    ctx.fake.demoAddresses = busy;
    const demo = useDemoStore();
    await demo.load();
    await useWatchlistStore().load();
    await demo.watch();
    ctx.fake.settings = { ...ctx.fake.settings, dataSource: { kind: 'avalanche' } };
    await demo.load();
    wrapper = mount(WatchlistView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    await flush();
    expect(wrapper.get('[data-testid="demo-leftovers"]').text()).toContain('Demo busy address 1');
    await wrapper.get('[data-testid="demo-leftovers-remove"]').trigger('click');
    await flush();
    expect(ctx.fake.callsOf('removeWatch')).toEqual([{ address: busy[0], forget: true }]);
    expect(wrapper.find('[data-testid="demo-leftovers"]').exists()).toBe(false);
  });
});
