/**
 * `npm run bench:day` exits 1 when it misses a target: a quarter-hour calm day, one core (no key), with
 * three of its reports dropped, two repeated, and 400 more requests at the service as its caller (the
 * service's count, the only one judged), must name each target it missed in its JSON line.
 */
import { describe, expect, it } from 'vitest';
import { runBench } from '../support/run-bench';

describe('bench:day fails when it misses a target', () => {
  it('names the missed, duplicated and overspent targets, and exits 1', { timeout: 150_000 }, async () => {
    const r = await runBench('bench/day.bench.ts', {
      BENCH_DAY_RATES: '0.2',
      BENCH_DAY_HOURS: '0.25',
      BENCH_DAY_PLANS: 'keyless',
      BENCH_ADDRESSES: '3',
      BENCH_PRELOAD: '500',
      BENCH_SETTLE_MINUTES: '5',
      BENCH_INJECT_MISSES: '3',
      BENCH_INJECT_DUPLICATES: '2',
      BENCH_INJECT_OVERSPEND: '400',
    });
    expect(r.result, r.stderr).not.toBeNull();
    const day = (r.result!.days as { cores: { missed: number; duplicates: number; spend: { refused: number; over: string | null } }[] }[])[0]!;
    const core = day.cores[0]!;
    expect(core.missed).toBeGreaterThanOrEqual(3);
    expect(core.duplicates).toBeGreaterThanOrEqual(2);
    // 400 list calls at one instant: the keyless minute (6,000 CU, 300 calls) lets some through and refuses the rest (429).
    expect(core.spend.refused).toBeGreaterThanOrEqual(100);
    expect(core.spend.over).toMatch(/refused \d+× \(429\)/);
    expect(r.result!.failed).toEqual(expect.arrayContaining(['missedKeylessAt0_2', 'duplicatesKeylessAt0_2', 'refusedKeylessAt0_2']));
    expect(r.result!.pass).toBe(false);
    expect(r.code).toBe(1);
  });
});
