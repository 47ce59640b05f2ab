// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import WatchlistView from '../../src/renderer/src/views/WatchlistView.vue';
import MessageTable from '../../src/renderer/src/components/MessageTable.vue';
import { useDemoStore } from '../../src/renderer/src/stores/demo';
import { useWatchlistStore } from '../../src/renderer/src/stores/watchlist';
import { BEAM } from './fixtures';
import { setupRealRenderer, until } from './real-core';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

/** A source that is not the embedded demo (nobody listens there; tests never leave 127.0.0.1). */
const REAL_SOURCE = { dataSource: { kind: 'custom' as const, baseUrl: 'http://127.0.0.1:9' } };

describe('demo busy addresses', () => {
  it('the empty Watchlist offers "Watch a demo address", which watches the busiest one with a label', async () => {
    const ctx = await setupRealRenderer();
    const busy = ctx.service.simulator.hotAddresses;
    await useDemoStore().load();
    await useWatchlistStore().load();
    wrapper = mount(WatchlistView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    await until(() => expect(wrapper!.find('[data-testid="watch-demo"]').exists()).toBe(true));
    await wrapper.get('[data-testid="watch-demo"]').trigger('click');
    await until(() => expect(wrapper!.findAll('[data-testid="watch-row"]')).toHaveLength(1));
    await until(() => expect(wrapper!.find('[data-testid="watch-demo"]').exists()).toBe(false));
    expect(ctx.transport.callsOf('addWatch')).toEqual([{ address: busy[0], label: 'Demo busy address 1' }]);
    expect(wrapper.findAll('[data-testid="watch-row"]').map((r) => r.attributes('data-address'))).toEqual([busy[0]]);
    expect(wrapper.find('[data-testid="watch-demo"]').exists()).toBe(false);
  });

  it('offers Watch in the address cells of demo addresses only, until watched', async () => {
    const ctx = await setupRealRenderer();
    const busy = ctx.service.simulator.hotAddresses;
    const quiet = ctx.service.simulator.addresses.filter((a) => !busy.includes(a));
    for (const [from, to] of [
      [busy[1]!, quiet[0]!],
      [quiet[1]!, quiet[0]!],
    ]) {
      await ctx.clock.advance(1000);
      ctx.service.simulator.send({ outcome: 'normal', from, to, destination: BEAM.blockchainId });
    }
    await ctx.clock.advance(1000);
    await useDemoStore().load();
    await useWatchlistStore().load();
    const rows = (await ctx.api.browseMessages({ pageSize: 2 })).messages;
    wrapper = mount(MessageTable, { props: { messages: rows }, global: { plugins: [ctx.pinia] }, attachTo: document.body });
    await until(() => expect(wrapper!.findAll('[data-testid="watch-demo-cell"]')).toHaveLength(1));
    const offers = wrapper.findAll('[data-testid="watch-demo-cell"]');
    await offers[0]!.trigger('click');
    await until(() => expect(wrapper!.findAll('[data-testid="watch-demo-cell"]')).toHaveLength(0));
    expect(ctx.transport.callsOf('addWatch')).toEqual([{ address: busy[1], label: 'Demo busy address 2' }]);
    // Clicking the button did not open the row.
    expect(wrapper.emitted('open')).toBeUndefined();
  });

  it('offers nothing once the data source is a real API', async () => {
    const ctx = await setupRealRenderer();
    await ctx.api.updateSettings(REAL_SOURCE);
    await useDemoStore().load();
    wrapper = mount(WatchlistView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    // The demo store answered before the mount: the render that shows the empty list decides the offer.
    await until(() => expect(wrapper!.find('[data-testid="watchlist-empty"]').exists()).toBe(true));
    expect(wrapper.find('[data-testid="watch-demo"]').exists()).toBe(false);
  });

  it('after a switch to a real source, offers to remove the demo addresses left on the watchlist', async () => {
    const ctx = await setupRealRenderer();
    const busy = ctx.service.simulator.hotAddresses;
    const demo = useDemoStore();
    await demo.load();
    await useWatchlistStore().load();
    await demo.watch();
    await ctx.api.updateSettings(REAL_SOURCE);
    await demo.load();
    wrapper = mount(WatchlistView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    await until(() => expect(wrapper!.find('[data-testid="demo-leftovers"]').exists()).toBe(true));
    expect(wrapper.get('[data-testid="demo-leftovers"]').text()).toContain('Demo busy address 1');
    await wrapper.get('[data-testid="demo-leftovers-remove"]').trigger('click');
    await until(() => expect(wrapper!.find('[data-testid="demo-leftovers"]').exists()).toBe(false));
    expect(ctx.transport.callsOf('removeWatch')).toEqual([{ address: busy[0], forget: true }]);
  });
});
