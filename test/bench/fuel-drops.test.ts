/**
 * bench:fuel's judge excuses only deliveries the core could not have read yet: three delivered route
 * messages in the core's database are turned back to pending at the last judged read
 * (BENCH_INJECT_DROPS), as if read after their delivery and lost. The judge finds them read but still
 * pending, keeps them in the truth, counts them as dropped (not as not read yet) and fails. The same
 * small world without the drops passes, so the failure is the drops'. 15 simulated minutes each.
 */
import { describe, expect, it } from 'vitest';
import { runBench } from '../support/run-bench';

interface FuelResult {
  pass: boolean;
  failed: string[];
  injectedDrops: number;
  droppedSample: { state: string }[];
  notReadYetExcused: { total: number; byRead: Record<string, number> };
  targets: Record<string, { value: number | null; met: boolean }>;
}

async function runFuelBench(env: Record<string, string>): Promise<{ code: number | null; result: FuelResult | null; stderr: string }> {
  const r = await runBench('bench/fuel.bench.ts', { BENCH_HOURS: '0.25', ...env });
  return { ...r, result: r.result as FuelResult | null };
}

describe('bench:fuel judges drops', () => {
  it('passes the small world as it is, and fails it on three deliveries the core lost', { timeout: 120_000 }, async () => {
    const clean = await runFuelBench({});
    expect(clean.result, clean.stderr).not.toBeNull();
    expect(clean.result!.targets.droppedDeliveries!.value).toBe(0);
    expect(clean.result!.pass).toBe(true);
    expect(clean.code).toBe(0);

    const r = await runFuelBench({ BENCH_INJECT_DROPS: '3' });
    expect(r.result, r.stderr).not.toBeNull();
    expect(r.result!.injectedDrops).toBe(3);
    expect(r.result!.targets.droppedDeliveries!.value).toBe(3);
    expect(r.result!.droppedSample.map((d) => d.state)).toEqual(['pending_read', 'pending_read', 'pending_read']);
    expect(r.result!.failed).toContain('droppedDeliveries');
    expect(r.result!.pass).toBe(false);
    expect(r.code).toBe(1);
  });
});
