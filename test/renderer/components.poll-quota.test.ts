// @vitest-environment happy-dom
/**
 * The poll status bar's quota line, from a real core reading the real service with its CU limits on:
 * today's spend against the plan's day, where the current pace leads, a warning look when that pace
 * would spend the quota, and how far behind the reads are once the budget cuts cycles short.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import PollStatusBar from '../../src/renderer/src/components/PollStatusBar.vue';
import { useStatusStore } from '../../src/renderer/src/stores/status';
import { setupRealRenderer, until } from './real-core';

const PLAN = { cuPerMinute: 400, cuPerDay: 4_000 };

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

describe('PollStatusBar: the quota line', () => {
  it('says the spend and the plan, warns when the pace would run the quota out, and says how far behind the reads are', async () => {
    const r = await setupRealRenderer({ rate: 2, computeUnits: { keyed: 'free', anonymous: { cuPerMinute: PLAN.cuPerMinute, cuPerDay: PLAN.cuPerDay } } });
    expect((await r.core.invoke('updateSettings', { plan: PLAN, pollIntervalSeconds: 30 })).ok).toBe(true);
    for (const address of r.service.simulator.addresses.slice(0, 12)) await r.core.invoke('addWatch', { address });
    const status = useStatusStore();
    await status.load();
    wrapper = mount(PollStatusBar, { global: { plugins: [r.pinia] } });
    await r.poll();
    const line = await until(() => {
      const el = wrapper!.get('[data-testid="poll-quota"]');
      expect(el.text()).toMatch(/^today [\d,]+ \/ 4,000 CU \(\d+ requests, custom plan\)/);
      return el;
    });
    expect(line.text()).toMatch(/at this pace runs out at \d\d:\d\d UTC, polling slows to last the day/);
    expect(line.attributes('data-level')).toBe('warning');
    // A plan whose day is already spent (less than the spend so far): cycles are cut short, and the bar says by how much.
    expect((await r.core.invoke('updateSettings', { plan: { cuPerMinute: 100, cuPerDay: 200 } })).ok).toBe(true);
    for (let i = 0; i < 6; i++) {
      await r.clock.advance(30_000);
      await r.poll();
    }
    await until(() => expect(wrapper!.get('[data-testid="poll-behind"]').text()).toMatch(/^reads [2-9] min behind$/));
    expect(wrapper.get('[data-testid="poll-quota"]').text()).toMatch(/^today [\d,]+ \/ 200 CU .* · today's share spent, resumes 00:00 UTC$/);
    expect(wrapper.get('[data-testid="poll-quota"]').attributes('data-level')).toBe('exhausted');
    expect(r.service.requestCount()).toBeGreaterThan(0);
  });
});
