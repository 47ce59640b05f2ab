/**
 * The benches judged by the one verdict (bench/verdict.ts: `npm run bench`, `bench:grid`, `bench:headless`)
 * fail on each fault bench/inject.ts injects: reports dropped (`missed`), reports repeated
 * (`duplicates`), and requests made at the service as the watcher's own caller (`dayCu`: the service's
 * count, not the watcher's, is what the spend rule reads). One run per bench with all three injected, in a
 * small world from 00:00 UTC, where the day's pace over a few minutes allows about 125 requests.
 */
import { describe, expect, it } from 'vitest';
import { runBench } from '../support/run-bench';

const smallWorld = { BENCH_PROFILE: 'plain', BENCH_ADDRESSES: '40', BENCH_RATE: '3', BENCH_PRELOAD: '500', BENCH_MINUTES: '1', BENCH_SETTLE_MINUTES: '2' };
/** 3 reports dropped, 2 repeated, 200 more list calls as the watcher (the day's pace allows 2,500 CU, 125 calls, by the run's end). */
const faults = { BENCH_INJECT_MISSES: '3', BENCH_INJECT_DUPLICATES: '2', BENCH_INJECT_OVERSPEND: '200' };

type Targets = Record<string, { value: number | null; limit: number; met: boolean }>;

/** The three injected faults each failed its own target, and the bench exited 1. */
function expectEachFailed(r: Awaited<ReturnType<typeof runBench>>, targets: Targets, failed: unknown, stderr: string): void {
  expect(failed, stderr).toEqual(expect.arrayContaining(['missed', 'duplicates', 'dayCu']));
  expect(targets.missed!.value).toBeGreaterThanOrEqual(3);
  expect(targets.duplicates!.value).toBe(2);
  // The overspend is counted at the service: at least the 200 injected calls' CU, over the day's allowance.
  expect(targets.dayCu!.value).toBeGreaterThanOrEqual(200 * 20);
  expect(targets.dayCu!.value).toBeGreaterThan(targets.dayCu!.limit);
  expect(r.code).toBe(1);
}

describe('the watcher benches fail on an injected miss, duplicate and overspend', () => {
  it('npm run bench (and a peak RSS no process can meet)', { timeout: 180_000 }, async () => {
    const r = await runBench('bench/core.bench.ts', { ...smallWorld, ...faults, BENCH_TARGET_PEAK_RSS_MB: '1' });
    expect(r.result, r.stderr).not.toBeNull();
    expect(r.result!.startUtc).toBe('2026-01-01T00:00:00.000Z');
    expect((r.result!.ours as { requests: { injected: number } }).requests.injected).toBe(200);
    expectEachFailed(r, r.result!.targets as Targets, r.result!.failed, r.stderr);
    expect(r.result!.failed).toContain('peakRssMb');
    // Judged against the fair pollers by the same rule: the list poller counts in this world.
    const v = r.result!.verdict as { cheaperFair: { name: string } | null };
    expect(v.cheaperFair?.name).toBe('list');
    expect(r.result!.failed).toContain('oursOverCheaperFair');
  });

  it('npm run bench:grid (one small cell, from 00:00 only)', { timeout: 180_000 }, async () => {
    const r = await runBench('bench/grid.bench.ts', { ...smallWorld, ...faults, BENCH_GRID_CELLS: '3@0.2', BENCH_GRID_NOON: '0' });
    expect(r.result, r.stderr).not.toBeNull();
    const cells = r.result!.cells as { cell: string; startUtc: string; targets: Targets; failed: string[]; pass: boolean }[];
    expect(cells.map((c) => [c.cell, c.startUtc])).toEqual([['3@0.2', '2026-01-01T00:00:00.000Z']]);
    expectEachFailed(r, cells[0]!.targets, cells[0]!.failed, r.stderr);
    expect(r.result!.pass).toBe(false);
  });

  it('npm run bench:headless', { timeout: 180_000 }, async () => {
    const r = await runBench('bench/headless.bench.ts', { ...smallWorld, ...faults });
    expect(r.result, r.stderr).not.toBeNull();
    // At the app's defaults, both fair pollers run (40 addresses fit the keyless minute), each judged.
    expect(r.result!.pollIntervalSeconds).toBe(30);
    expect(r.result!.stuckThresholdMinutes).toBe(30);
    expect((r.result!.verdict as { fair: { name: string }[] }).fair.map((f) => f.name)).toEqual(['list', 'per-address']);
    expect((r.result!.requests as { ours: { injected: number } }).ours.injected).toBe(200);
    expectEachFailed(r, r.result!.targets as Targets, r.result!.failed, r.stderr);
  });
});
