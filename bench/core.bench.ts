/**
 * `npm run bench`: the monitor core against the local service (its simulator at 20 messages/s),
 * 1,000 watched addresses, a 10 s poll interval, 10+ simulated minutes on a manual clock, beside a
 * naive poller (every address's first page every interval). Prints one JSON line: missed and duplicate
 * transitions, detection latency (p50/p95/p99/max, also as multiples of the interval), requests against
 * the naive poller's, and the core's peak RSS.
 *
 * Ground truth is every record change the service's store receives, with its simulated time. The core
 * runs in a child process (its peak RSS is measured alone) whose clock the parent sets before each poll.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import * as esbuild from 'esbuild';
import { ManualClock } from '../src/shared/clock';
import { startBenchService } from './bench-service';
import { compare, expectedTransitions, percentile, recordChanges } from './transition-truth';
import { childCall } from './child-call';

const INTERVAL_S = Number(process.env.BENCH_INTERVAL_S ?? 10);
const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const SETTLE_MINUTES = Number(process.env.BENCH_SETTLE_MINUTES ?? 5);
const ADDRESSES = Number(process.env.BENCH_ADDRESSES ?? 1000);
const RATE = Number(process.env.BENCH_RATE ?? 20);
const BUDGET = 3000;
const NAIVE_CONCURRENCY = 16;

const overInterval = (ms: number | null) => Math.round(((ms ?? 0) / (INTERVAL_S * 1000)) * 100) / 100;

async function main(): Promise<void> {
  const wallStart = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'tw-core-bench-'));
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  const svc = await startBenchService(clock, { rate: RATE, addresses: ADDRESSES });
  const history = recordChanges(svc, clock);
  const addresses = svc.simulator.addresses.slice(0, ADDRESSES);

  // The core runs as bundled JavaScript in plain Node, as in the app (no TypeScript loader in its memory).
  const childJs = join(work, 'core-bench-child.cjs');
  await esbuild.build({
    entryPoints: [join(__dirname, 'core-bench-child.ts')],
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    outfile: childJs,
    external: ['node:sqlite', '@napi-rs/keyring'],
    logLevel: 'error',
  });
  const child = fork(childJs, [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: (process.env.BENCH_CHILD_FLAGS ?? '').split(' ').filter(Boolean),
    env: { ...process.env, NODE_PATH: join(__dirname, '..', 'node_modules') },
  });
  await new Promise<void>((r) => child.once('message', () => r()));
  svc.simulator.detachClock(); // no traffic while the baselines are taken
  const requestsBeforeBaseline = svc.requestCount();
  await childCall(
    child,
    { type: 'init', url: svc.url, dataDir: join(work, 'core'), now: clock.now(), addresses, intervalSeconds: INTERVAL_S, budget: BUDGET },
    'ready',
  );
  const baselineRequests = svc.requestCount() - requestsBeforeBaseline;
  const baselineAt = clock.now();
  await clock.advance(1);
  svc.simulator.attach(clock);

  const naivePool = new Pool(svc.url, { connections: NAIVE_CONCURRENCY });
  let naiveRequests = 0;
  const naiveCycle = async () => {
    let next = 0;
    await Promise.all(
      Array.from({ length: NAIVE_CONCURRENCY }, async () => {
        while (next < addresses.length) {
          const a = addresses[next++] as string;
          const res = await naivePool.request({ path: `/v1/teleporter/addresses/${a}/messages?pageSize=10&network=mainnet`, method: 'GET' });
          await res.body.text();
          naiveRequests++;
        }
      }),
    );
  };

  const detected: { id: string; kind: string; at: number }[] = [];
  let oursRequests = 0;
  const cycles = Math.ceil((MINUTES * 60) / INTERVAL_S);
  for (let i = 0; i < cycles; i++) {
    await clock.advance(INTERVAL_S * 1000);
    const before = svc.requestCount();
    const r = await childCall(child, { type: 'tick', now: clock.now() }, 'polled');
    oursRequests += svc.requestCount() - before;
    detected.push(...(r.transitions as typeof detected));
    if (process.env.BENCH_DEBUG && i % 3 === 0) {
      const mem = r.memory as NodeJS.MemoryUsage;
      const st = r.status as { tracked: number };
      console.error(
        `cycle ${i}: requests ${svc.requestCount() - before}, tracked ${st.tracked}, rss ${(mem.rss / 1048576).toFixed(0)} MB, heap ${(mem.heapUsed / 1048576).toFixed(0)}/${(mem.heapTotal / 1048576).toFixed(0)} MB, external ${(mem.external / 1048576).toFixed(0)} MB`,
      );
    }
    await naiveCycle();
  }
  const trafficEnd = clock.now();
  // Traffic stops; the core catches up with the last changes (not counted in requests per minute).
  svc.simulator.detachClock();
  for (let i = 0; i < Math.ceil((SETTLE_MINUTES * 60) / INTERVAL_S); i++) {
    await clock.advance(INTERVAL_S * 1000);
    const r = await childCall(child, { type: 'tick', now: clock.now() }, 'polled');
    detected.push(...(r.transitions as typeof detected));
  }
  const closed = await childCall(child, { type: 'close' }, 'closed');

  // Expected transitions (every simulator address is watched; mainnet and fuji share one watchlist network).
  const expected = expectedTransitions(svc, history, baselineAt, new Set(addresses));
  const { missed, duplicates, unexpected: extra, latencies } = compare(expected, detected);
  const minutes = (trafficEnd - baselineAt) / 60_000;
  const result = {
    bench: 'core',
    simulatedMinutes: Math.round(minutes * 10) / 10,
    watchedAddresses: addresses.length,
    messagesPerSecond: RATE,
    pollIntervalSeconds: INTERVAL_S,
    transitionsExpected: expected.size,
    transitionsMissed: missed.length,
    duplicates,
    unexpected: extra.length,
    detectionLatencyMs: {
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
      max: latencies[latencies.length - 1] ?? null,
    },
    latencyP95OverInterval: overInterval(percentile(latencies, 95)),
    // Targets: p99 <= 2 x the poll interval, max <= 6 x.
    latencyP99OverInterval: overInterval(percentile(latencies, 99)),
    latencyMaxOverInterval: overInterval(latencies[latencies.length - 1] ?? null),
    requestsPerMinute: { ours: Math.round(oursRequests / minutes), naive: Math.round(naiveRequests / minutes) },
    oursOverNaive: Math.round((oursRequests / Math.max(1, naiveRequests)) * 1000) / 1000,
    baselineRequests,
    peakRssMb: Math.round((Number(closed.peakRss) / 1024 / 1024) * 10) / 10,
    wallSeconds: Math.round((Date.now() - wallStart) / 1000),
  };
  await naivePool.close();
  console.log(JSON.stringify(result));
  if (process.env.BENCH_DEBUG) {
    for (const k of [...missed.slice(0, 8), ...extra.slice(0, 4)]) {
      const id = k.split(':')[0] as string;
      const rec = svc.store.get(id);
      console.error(
        missed.includes(k) ? 'MISSED' : 'EXTRA',
        k,
        JSON.stringify(history.get(id)?.map((h) => [h.at ? (h.at - baselineAt) / 1000 : 'pre', h.status, h.rd])),
        'ts',
        rec && (rec.sourceTransaction as { timestamp?: number } | undefined)?.timestamp,
        'baseline',
        baselineAt / 1000,
      );
    }
  }
  await svc.close();
  if (process.env.BENCH_KEEP) console.error('kept', work);
  else rmSync(work, { recursive: true, force: true });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
