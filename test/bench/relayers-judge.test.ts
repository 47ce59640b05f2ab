/**
 * bench:relayers judges what is true and fails on a miss, a duplicate and an overspend, in one small run
 * (30 simulated minutes at 3 messages/s, a 2-minute silence threshold, 3 settle minutes; the same world
 * without injections passes every target: the outage alerted and resolved, nothing dropped):
 * - once the traffic stops (the settle minutes), every relayer is silent in fact, so the silence alerts
 *   the core then shows (a threshold after each relayer's last delivery) are counted apart, not as
 *   alerts for healthy relayers or second episodes;
 * - three delivered route messages in the core's cache turned back to pending just before the figures
 *   are read (BENCH_INJECT_DROPS), as if read after their delivery and lost: found in the core's database
 *   as read but still pending, counted as drops, not as deliveries not read yet;
 * - the first alert the core showed (the outage's) dropped (BENCH_INJECT_MISSES): the outage unalerted;
 * - the next (the outage's resolve) shown twice (BENCH_INJECT_DUPLICATES): a duplicate episode;
 * - 301 list calls at the service as the core (BENCH_INJECT_OVERSPEND, one more than the keyless minute
 *   holds): the service's count, never the core's budget, breaks the published plan.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PLAN_LIMITS, REQUEST_CU } from '../../src/shared/plans';
import { runBench, type BenchRun } from '../support/run-bench';

describe('bench:relayers judges what is true', () => {
  let r: BenchRun;
  beforeAll(async () => {
    r = await runBench('bench/relayers.bench.ts', {
      BENCH_MINUTES: '30',
      BENCH_RATE: '3',
      BENCH_SETTLE_MINUTES: '3',
      BENCH_SILENT_MINUTES: '2',
      BENCH_PENDING_MINUTES: '1',
      BENCH_INJECT_DROPS: '3',
      BENCH_INJECT_MISSES: '1',
      BENCH_INJECT_DUPLICATES: '1',
      BENCH_INJECT_OVERSPEND: String(PLAN_LIMITS.unauthenticated.cuPerMinute / REQUEST_CU + 1),
    });
  }, 150_000);

  it('counts the silence of every relayer in the settle minutes apart, not as healthy relayers alerted', () => {
    expect(r.result, r.stderr).not.toBeNull();
    const alerts = r.result!.alerts as {
      healthyAlerts: number;
      silentAfterTrafficStopped: { count: number };
      shown: { title: string; at: number }[];
    };
    const silences = alerts.shown.filter((s) => s.title.startsWith('Relayer silent:'));
    // The core did alert them (the eight relayers went quiet with the world)…
    expect(silences.length).toBeGreaterThanOrEqual(8);
    // …and the bench judged those as true.
    expect(alerts.silentAfterTrafficStopped.count).toBe(silences.length);
    expect(alerts.healthyAlerts).toBe(0);
    expect(r.result!.failed).not.toContain('healthyAlerts');
  });

  it('fails on three deliveries the core lost, each found read but still pending', () => {
    expect(r.result, r.stderr).not.toBeNull();
    const missing = (r.result!.figures as { missing: { dropped: number; byState: Record<string, number> } }).missing;
    expect(r.result!.injectedDrops).toBe(3);
    expect(missing.byState.pending_read).toBe(3);
    expect(missing.dropped).toBe(3);
    expect(r.result!.failed).toEqual(expect.arrayContaining(['droppedDeliveries', 'countMismatches']));
  });

  it("fails on the outage's alert dropped and its resolve shown twice", () => {
    expect(r.result, r.stderr).not.toBeNull();
    const alerts = r.result!.alerts as { outageFires: number; outageResolves: number; duplicates: number };
    expect(alerts).toMatchObject({ outageFires: 0, outageResolves: 2, duplicates: 1 });
    expect(r.result!.failed).toEqual(expect.arrayContaining(['fireAfterOutageStartS', 'duplicateEpisodes']));
  });

  it("judges the spend on the service's count against the keyless plan, and fails on the calls made as the core", () => {
    expect(r.result, r.stderr).not.toBeNull();
    const spend = r.result!.spend as { caller: string; plan: string; requests: number; over: string | null };
    expect(spend).toMatchObject({ caller: 'anonymous', plan: 'unauthenticated' });
    expect(spend.over).not.toBeNull();
    expect(r.result!.failed).toContain('spendOverPlan');
    // The core's "behind" (none here) is within what may be excused.
    expect(r.result!.failed).not.toContain('behindExcusedMinutes');
    expect(r.result!.pass).toBe(false);
    expect(r.code).toBe(1);
  });
});
