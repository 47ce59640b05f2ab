/**
 * bench:fuel fails when the core misses, repeats or overspends, in one small world (15 simulated
 * minutes: one stall of the dry wallet, alerted before it). The world as it is passes; then, each in a
 * run of that world, and each failing its own target:
 * - three delivered route messages in the core's database turned back to pending at the last read
 *   (BENCH_INJECT_DROPS): found read but still pending, counted as dropped, not as not read yet;
 * - the core's first fuel alert dropped (BENCH_INJECT_MISSES): the stall goes unwarned;
 * - 301 list calls at the service as the core (BENCH_INJECT_OVERSPEND: more than the keyless plan's minute
 *   of 6,000 CU at 20 each): the service's count, never the core's, breaks the published plan;
 * - the core's first fuel alert reported twice (BENCH_INJECT_DUPLICATES): an alert repeated in its episode.
 */
import { describe, expect, it } from 'vitest';
import { PLAN_LIMITS, REQUEST_CU } from '../../src/shared/plans';
import { runBench } from '../support/run-bench';

interface FuelResult {
  pass: boolean;
  failed: string[];
  droppedSample: { state: string }[];
  spend: { over: string | null; refused: number; peakMinuteCu: number };
  balanceReads: { reads: number; tooSoon: number };
  targets: Record<string, { value: number | null; met: boolean }>;
}

async function runFuelBench(env: Record<string, string>): Promise<{ code: number | null; result: FuelResult | null; stderr: string }> {
  const r = await runBench('bench/fuel.bench.ts', { BENCH_HOURS: '0.25', ...env });
  return { ...r, result: r.result as FuelResult | null };
}

/** One more list call (20 CU) than the keyless plan's minute holds. */
const OVER_A_MINUTE = String(PLAN_LIMITS.unauthenticated.cuPerMinute / REQUEST_CU + 1);

describe('bench:fuel fails on a miss, a duplicate and an overspend', () => {
  it('passes the small world as it is, and fails each injection on its own target', { timeout: 150_000 }, async () => {
    const clean = await runFuelBench({});
    expect(clean.result, clean.stderr).not.toBeNull();
    expect(clean.result!.targets.stallsUnwarned!.value).toBe(0);
    // Balance reads counted at the service, every one of them.
    expect(clean.result!.balanceReads.reads).toBeGreaterThan(0);
    expect(clean.result!.spend.over).toBeNull();
    expect(clean.result!.pass).toBe(true);
    expect(clean.code).toBe(0);

    const r = await runFuelBench({ BENCH_INJECT_DROPS: '3', BENCH_INJECT_MISSES: '1', BENCH_INJECT_OVERSPEND: OVER_A_MINUTE });
    expect(r.result, r.stderr).not.toBeNull();
    expect(r.result!.targets.droppedDeliveries!.value).toBe(3);
    expect(r.result!.droppedSample.map((d) => d.state)).toEqual(['pending_read', 'pending_read', 'pending_read']);
    expect(r.result!.targets.stallsUnwarned!.value).toBe(1);
    expect(r.result!.spend.over).not.toBeNull();
    expect(r.result!.failed).toEqual(expect.arrayContaining(['droppedDeliveries', 'stallsUnwarned', 'spendOverPlan']));
    expect(r.result!.failed).not.toContain('repeatedAlerts');
    expect(r.result!.pass).toBe(false);
    expect(r.code).toBe(1);

    const twice = await runFuelBench({ BENCH_INJECT_DUPLICATES: '1' });
    expect(twice.result, twice.stderr).not.toBeNull();
    expect(twice.result!.failed).toEqual(['repeatedAlerts']);
    expect(twice.code).toBe(1);
  });
});
