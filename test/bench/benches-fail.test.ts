/**
 * Each benchmark exits 1 when it misses a target: run in a small world with an injected miss or an
 * impossible target, it must say which target it missed in its JSON line and exit 1. (bench:relayers'
 * impossible target is judged in test/bench/relayers-judge.test.ts's run, which fails it on drops too;
 * `npm run bench`, bench:grid and bench:headless in test/bench/watcher-benches-fail.test.ts.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBench } from '../support/run-bench';

describe('benchmarks fail when they miss a target', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tw-bench-test-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("npm run bench:own-node: three of the core's transitions dropped, judged against the chains' logs", { timeout: 240_000 }, async () => {
    const r = await runBench('bench/own-node.bench.ts', { BENCH_SECONDS: '6', BENCH_RATE: '2', BENCH_CORE_INTERVAL_S: '5', BENCH_INJECT_MISSES: '3' });
    expect(r.result, r.stderr).not.toBeNull();
    const core = r.result!.core as { expected: number; missed: number; injectedMisses: number };
    // Sends and deliveries both ways at least (receipts when a message went back after them).
    expect(core.expected).toBeGreaterThanOrEqual(2 * (r.result!.sent as number));
    expect(core.injectedMisses).toBe(3);
    expect(core.missed).toBeGreaterThanOrEqual(3);
    expect(r.result!.failed).toContain('coreMissed');
    expect(r.result!.pass).toBe(false);
    expect(r.code).toBe(1);
  });

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
