// @vitest-environment happy-dom
/**
 * The poll status bar says when the indexer stalled and how far back the sweeps after it read. A real
 * core on the real local service: the service lists nothing new for 40 minutes, then catches up.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import PollStatusBar from '../../src/renderer/src/components/PollStatusBar.vue';
import { useStatusStore } from '../../src/renderer/src/stores/status';
import { apiRecord } from '../core/helpers';
import { setupRealRenderer, until } from './real-core';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

const INTERVAL_MS = 30_000;

describe('PollStatusBar and an indexer stall', () => {
  it('shows nothing while the list moves on, then "indexer stalled N min, swept back to HH:MM" once it moves on after a stall', async () => {
    const ctx = await setupRealRenderer();
    // Five watches: new messages are read through the unfiltered list (its top is what shows a stall).
    for (const address of ctx.service.simulator.addresses.slice(0, 5)) expect((await ctx.core.invoke('addWatch', { address })).ok).toBe(true);
    const nowS = () => Math.floor(ctx.clock.now() / 1000);
    /** Background records nobody watches, one every 5 s, stamped up to now. */
    let shownTo = nowS() - 600;
    const show = (toTs: number) => {
      for (; shownTo < toTs; shownTo += 5) ctx.service.store.upsert(apiRecord({ status: 'delivered', ts: shownTo }));
    };
    const cycle = async (live: boolean) => {
      await ctx.clock.advance(INTERVAL_MS);
      if (live) show(nowS());
      await ctx.poll();
    };
    show(nowS());
    await ctx.poll();
    for (let i = 0; i < 6; i++) await cycle(true);
    const status = useStatusStore();
    await status.load();
    wrapper = mount(PollStatusBar, { global: { plugins: [ctx.pinia] } });
    await until(() => expect(wrapper!.find('[data-testid="poll-state"]').exists()).toBe(true));
    expect(wrapper.find('[data-testid="poll-indexer-stall"]').exists()).toBe(false);

    // 40 minutes with nothing new listed, then the catch-up.
    const stalledFrom = shownTo;
    for (let i = 0; i < 80; i++) await cycle(false);
    expect(wrapper.find('[data-testid="poll-indexer-stall"]').exists()).toBe(false);
    await cycle(true);
    const sweptTo = new Date((stalledFrom - 5 - 30 * 60) * 1000).toLocaleTimeString();
    await until(() => expect(wrapper!.get('[data-testid="poll-indexer-stall"]').text()).toBe(`indexer stalled 40 min, swept back to ${sweptTo}`));
  });
});
