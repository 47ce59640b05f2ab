/**
 * bench:relayers judges what is true, in one small run (12 simulated minutes at 3 messages/s, a
 * 2-minute silence threshold, 3 settle minutes):
 * - once the traffic stops (the settle minutes), every relayer is silent in fact, so the silence alerts
 *   the core then shows (a threshold after each relayer's last delivery) are counted apart, not as
 *   alerts for healthy relayers or second episodes;
 * - it fails on a delivery the core lost: three delivered route messages in the core's cache are turned
 *   back to pending just before the figures are read (BENCH_INJECT_DROPS), as if read after their
 *   delivery and lost; the judge finds them in the core's database as read but still pending and counts
 *   them as drops, not as deliveries not read yet;
 * - its requests are judged against the keyless plan's pace line (the app's default plan, not one the
 *   bench sets), here set to nothing, so that target fails too.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runBench, type BenchRun } from '../support/run-bench';

describe('bench:relayers judges what is true', () => {
  let r: BenchRun;
  beforeAll(async () => {
    r = await runBench('bench/relayers.bench.ts', {
      BENCH_MINUTES: '12',
      BENCH_RATE: '3',
      BENCH_SETTLE_MINUTES: '3',
      BENCH_SILENT_MINUTES: '2',
      BENCH_PENDING_MINUTES: '1',
      BENCH_INJECT_DROPS: '3',
      BENCH_TARGET_REQUESTS_OVER_PACE_LINE: '0',
    });
  }, 180_000);

  it('counts the silence of every relayer in the settle minutes apart, not as healthy relayers alerted', () => {
    expect(r.result, r.stderr).not.toBeNull();
    const alerts = r.result!.alerts as {
      healthyAlerts: number;
      duplicates: number;
      silentAfterTrafficStopped: { count: number };
      shown: { title: string; at: number }[];
    };
    const silences = alerts.shown.filter((s) => s.title.startsWith('Relayer silent:'));
    // The core did alert them (the eight relayers went quiet with the world)…
    expect(silences.length).toBeGreaterThanOrEqual(8);
    // …and the bench judged those as true.
    expect(alerts.silentAfterTrafficStopped.count).toBe(silences.length);
    expect(alerts.healthyAlerts).toBe(0);
    expect(alerts.duplicates).toBe(0);
  });

  it('fails on three deliveries the core lost, each found read but still pending', () => {
    expect(r.result, r.stderr).not.toBeNull();
    const missing = (r.result!.figures as { missing: { dropped: number; notYetDue: number; byState: Record<string, number> } }).missing;
    expect(r.result!.injectedDrops).toBe(3);
    expect(missing.byState.pending_read).toBe(3);
    expect(missing.dropped).toBe(3);
    expect(r.result!.failed).toEqual(expect.arrayContaining(['droppedDeliveries', 'countMismatches']));
    expect(r.result!.failed).not.toContain('healthyAlerts');
    expect(r.result!.pass).toBe(false);
    expect(r.code).toBe(1);
  });

  it("judges its requests against the keyless plan's pace line, here set to nothing", () => {
    expect(r.result, r.stderr).not.toBeNull();
    // The budget judged is the app's default plan without a key (budget.ts's figures), not one the bench set.
    const requests = r.result!.requests as { plan: string; requests: number; budget: { burstPerMinute: number; sustainedPerMinute: number } };
    expect(requests.plan).toMatch(/^unauthenticated /);
    expect(requests.budget).toMatchObject({ burstPerMinute: 285, sustainedPerMinute: 39.6 });
    expect(requests.requests).toBeGreaterThan(0);
    expect(r.result!.failed).toContain('requestsOverPaceLine');
  });
});
