// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import WatchlistView from '../../src/renderer/src/views/WatchlistView.vue';
import { useWatchlistStore } from '../../src/renderer/src/stores/watchlist';
import { BEAM } from './fixtures';
import { setupRealRenderer, until } from './real-core';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

const tags = (w: VueWrapper, row: string) =>
  w.findAll(`[data-testid="${row}"] [data-testid="live-tag"]`).map((t) => `${t.text()}:${t.attributes('data-live')}`);

describe('Watchlist live tags', () => {
  it('shows "baselining…" while a watch or feed takes its baseline, and "live" once the core says it is done', async () => {
    const ctx = await setupRealRenderer();
    const store = useWatchlistStore();
    await store.load();
    wrapper = mount(WatchlistView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    // The data source fails every request: the baselines cannot finish.
    ctx.service.setFaults('5xx:1');
    const address = ctx.service.simulator.addresses[0]!;
    expect((await ctx.core.invoke('addWatch', { address, label: 'ops' })).ok).toBe(true);
    expect((await ctx.core.invoke('addFeed', { name: 'to Beam', filter: { destinationBlockchainId: BEAM.blockchainId } })).ok).toBe(true);
    await until(() => expect([...tags(wrapper!, 'watch-row'), ...tags(wrapper!, 'feed-row')]).toEqual(['baselining…:false', 'baselining…:false']));

    // The source recovers; a poll the UI did not ask for finishes both baselines, and the rows follow.
    ctx.service.setFaults(null);
    const reads = ctx.transport.callsOf('listWatches').length;
    await ctx.poll();
    await until(() => expect([...tags(wrapper!, 'watch-row'), ...tags(wrapper!, 'feed-row')]).toEqual(['live:true', 'live:true']));
    expect(ctx.transport.callsOf('listWatches').length).toBeGreaterThan(reads);
  });
});
