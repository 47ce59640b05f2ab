/**
 * Each benchmark exits 1 when it misses a target: run in a small world with an injected miss or an
 * impossible target, it must say which target it missed in its JSON line and exit 1. (bench:relayers'
 * impossible target is judged in test/bench/relayers-judge.test.ts's run, which fails it on drops too.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PLAN_LIMITS, REQUEST_CU } from '../../src/shared/plans';
import { runBench } from '../support/run-bench';

describe('benchmarks fail when they miss a target', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tw-bench-test-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it(
    "npm run bench:own-node: the core's first three transitions dropped, the next repeated, and a minute's calls too many made as the core",
    { timeout: 240_000 },
    async () => {
      const r = await runBench('bench/own-node.bench.ts', {
        BENCH_SECONDS: '6',
        BENCH_RATE: '2',
        BENCH_CORE_INTERVAL_S: '5',
        BENCH_INJECT_MISSES: '3',
        BENCH_INJECT_DUPLICATES: '1',
        // One more list call (20 CU) than the keyless plan's minute holds, at the service as the core's caller.
        BENCH_INJECT_OVERSPEND: String(PLAN_LIMITS.unauthenticated.cuPerMinute / REQUEST_CU + 1),
      });
      expect(r.result, r.stderr).not.toBeNull();
      const core = r.result!.core as { expected: number; missed: number; duplicates: number; injected: Record<string, number> };
      // Sends and deliveries both ways at least (receipts when a message went back after them).
      expect(core.expected).toBeGreaterThanOrEqual(2 * (r.result!.sent as number));
      expect(core.injected).toEqual({ misses: 3, duplicates: 1, overspend: 301 });
      expect(core.missed).toBeGreaterThanOrEqual(3);
      expect(core.duplicates).toBe(1);
      // Judged on the service's count of the keyless caller, against the published plan.
      const spend = r.result!.spend as { caller: string; plan: string; over: string | null };
      expect(spend).toMatchObject({ caller: 'anonymous', plan: 'unauthenticated' });
      expect(spend.over).not.toBeNull();
      expect(r.result!.failed).toEqual(expect.arrayContaining(['coreMissed', 'coreDuplicates', 'spendOverPlan']));
      expect(r.result!.pass).toBe(false);
      expect(r.code).toBe(1);
    },
  );

  it('npm run bench:service: a round-trip p99 under 0 ms', { timeout: 180_000 }, async () => {
    const r = await runBench('bench/service.bench.ts', {
      BENCH_MESSAGES: '2000',
      BENCH_REQUESTS: '10',
      BENCH_DEEP_PAGES: '20',
      BENCH_CACHE_DIR: join(tmp, 'cache'),
      BENCH_TARGET_P99_MS: '0',
    });
    expect(r.result, r.stderr).not.toBeNull();
    expect(r.result!.targetP99Ms).toBe(0);
    expect(r.result!.worstP99Ms).toBeGreaterThan(0);
    expect(r.result!.pass).toBe(false);
    expect(r.code).toBe(1);
  });
});
