/**
 * bench/verdict.ts: the one rule for ours and the fair pollers, from what a ServiceCount counted. A fair
 * poller counts only when clean and within the spend rule; ours is held to the same rule, to the cheapest
 * counting poller's CU, and to the latency bound only where the plan keeps up.
 */
import { describe, expect, it } from 'vitest';
import { judgeSpend } from '../../bench/judge';
import { ServiceCount } from '../../bench/service-count';
import { judgeWatcher, overStatedBound, statedBoundMs, type Contender } from '../../bench/verdict';
import { ManualClock } from '../../src/shared/clock';

const MIDNIGHT = Date.UTC(2026, 0, 1);
const RUN_MS = 10 * 60_000;

/** A ServiceCount that charged each caller `calls` list calls (20 CU) spread over the run's 10 minutes. */
async function counted(calls: Record<string, number>): Promise<{ count: ServiceCount; clock: ManualClock }> {
  const clock = new ManualClock(MIDNIGHT);
  const count = new ServiceCount(clock);
  for (let m = 0; m < 10; m++) {
    for (const [key, n] of Object.entries(calls))
      for (let i = 0; i < Math.ceil(n / 10); i++) count.onCharge({ caller: 'key', cu: 20, path: '/v1/teleporter/messages', key });
    await clock.advance(60_000);
  }
  return { count, clock };
}

const clean = { missed: 0, duplicates: 0, unexpected: 0 };

describe('judgeWatcher', () => {
  it('counts only clean fair pollers within the rule, and holds ours to the cheapest of them', async () => {
    // The keyless day pace is 833 CU a minute: 41 calls; 10 minutes from 00:00 allow 8,333 CU (416 calls).
    const { count } = await counted({ ours: 300, list: 250, perAddress: 600, missing: 100 });
    const who = (name: string, extra: Partial<Contender> = {}): Contender => ({
      name,
      ...clean,
      cu: count.cu(name),
      requests: count.requests(name),
      spend: judgeSpend(count, name, 'unauthenticated', MIDNIGHT, MIDNIGHT + RUN_MS),
      ...extra,
    });
    const v = judgeWatcher(
      who('ours'),
      [who('list'), who('perAddress'), who('missing', { missed: 2 })],
      { p95Intervals: 1.2, lateOverBound: 0, overStatedBound: 0 },
      true,
    );
    expect(v.fair.map((f) => [f.name, f.counts])).toEqual([
      ['list', true],
      ['perAddress', false],
      ['missing', false],
    ]);
    expect(v.fair[1]!.why).toBe('12,000 CU > 8,333 the day allows by then');
    expect(v.fair[2]!.why).toBe('2 missed, 0 dup, 0 unexpected');
    expect(v.cheaperFair).toEqual({ name: 'list', cu: 5_000, requests: 250 });
    expect(v.oursOverCheaperFair).toBe(1.2);
    expect(v.targets.oursOverCheaperFair).toEqual([1.2, 1]);
    expect(v.targets.dayCu).toEqual([6_000, 8_333]);
    expect(v.targets.p95Intervals).toEqual([1.2, 2]);
  });

  it('where no fair poller counts, ours is still held to clean and the spend rule; where the plan cannot keep up, the stated bound instead of the latency one', async () => {
    const { count } = await counted({ ours: 500, list: 900 });
    const spend = (name: string) => judgeSpend(count, name, 'unauthenticated', MIDNIGHT, MIDNIGHT + RUN_MS);
    const ours: Contender = { name: 'ours', ...clean, missed: 4, cu: count.cu('ours'), requests: 500, spend: spend('ours') };
    const list: Contender = { name: 'list', ...clean, cu: count.cu('list'), requests: 900, spend: spend('list') };
    const v = judgeWatcher(
      ours,
      [list, { name: 'per-address', notRun: 'too many addresses' }],
      { p95Intervals: 9, lateOverBound: 3, overStatedBound: 2 },
      false,
    );
    expect(v.cheaperFair).toBeNull();
    expect(v.fair[1]).toMatchObject({ counts: false, why: 'not run: too many addresses' });
    expect(Object.keys(v.targets).sort()).toEqual(['dayCu', 'duplicates', 'missed', 'overStatedBound', 'peakMinuteCu', 'refused', 'unexpected']);
    expect(v.targets.overStatedBound).toEqual([2, 0]);
    expect(v.targets.missed).toEqual([4, 0]);
    expect(v.targets.dayCu).toEqual([10_000, 8_333]);
    expect(v.oursWhy).toBe('10,000 CU > 8,333 the day allows by then; 4 missed, 0 dup, 0 unexpected');
  });

  it('counts the transitions found later than the stated bound of a list busier than the plan (30 min and 2 intervals after visible)', () => {
    const interval = 30_000;
    expect(statedBoundMs(interval)).toBe(31 * 60_000);
    const at = (afterVisibleMs: number) => ({ visibleAt: 1_000, detectedAt: 1_000 + afterVisibleMs });
    expect(overStatedBound([at(0), at(31 * 60_000), at(31 * 60_000 + 1), at(3 * 3_600_000)], interval)).toBe(2);
  });
});
