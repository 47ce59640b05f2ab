/**
 * `npm run bench:headless`: the headless watcher (config file, outbox, Alertmanager channel) with
 * 10,000 watched addresses against the local service (its realistic profile, simulator at 20 messages/s)
 * for 10 simulated minutes on a manual clock. Alerts go to an Alertmanager-compatible receiver in this
 * process, which counts every alert it gets. Prints one JSON line and exits 1 when a target is missed.
 *
 * Alerts are judged against the one ground truth (test/support/ground-truth.ts). The naive poller's requests are
 * computed, not run: it asks each address's first page once per interval (addresses × cycles), which at
 * 10,000 addresses would take longer to serve than the benchmark itself.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../src/shared/clock';
import { startBenchService } from './bench-service';
import { compare, GroundTruth } from '../test/support/ground-truth';
import { childCall } from './child-call';
import { bundleChild, favorMemory } from './bundle-child';
import { judgeTargets, report } from './targets';
import { worldKnobs } from './world-knobs';
import { writeWatcherConfig } from './watcher-config';

const {
  intervalS: INTERVAL_S,
  minutes: MINUTES,
  settleMinutes: SETTLE_MINUTES,
  addresses: ADDRESSES,
  rate: RATE,
  preload: PRELOAD,
  budget: BUDGET,
  drop: DROP,
  realistic: REALISTIC,
} = worldKnobs(10_000);

async function main(): Promise<void> {
  const wallStart = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'tw-headless-bench-'));
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  const svc = await startBenchService(clock, { rate: RATE, addresses: ADDRESSES, preload: PRELOAD, realistic: REALISTIC });
  const truth = GroundTruth.listen(svc);
  const addresses = svc.simulator.addresses.slice(0, ADDRESSES);

  // An Alertmanager stand-in that keeps every alert it is sent (a real one would hide duplicates).
  const alerts: { id: string; kind: string; at: number }[] = [];
  let alertRequests = 0;
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      alertRequests++;
      for (const a of JSON.parse(body) as { labels: Record<string, string> }[])
        alerts.push({ id: a.labels.messageId as string, kind: a.labels.kind as string, at: clock.now() });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  const childJs = join(work, 'headless-bench-child.cjs');
  await bundleChild(join(__dirname, 'headless-bench-child.ts'), childJs, ['@napi-rs/keyring']);
  // No TypeScript loader in the child (its memory is the watcher's alone).
  const child = fork(childJs, [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: (process.env.BENCH_CHILD_FLAGS ?? '').split(' ').filter(Boolean),
    env: { ...process.env, NODE_PATH: join(__dirname, '..', 'node_modules') },
  });
  await new Promise<void>((r) => child.once('message', () => r()));
  svc.simulator.detachClock(); // no traffic while the watchlist is synced and the baselines are taken
  const before = svc.requestCount();
  const ready = await childCall(
    child,
    {
      type: 'init',
      configFile: writeWatcherConfig(join(work, 'watcher'), { url: svc.url, receiverUrl, addresses, intervalSeconds: INTERVAL_S, budget: BUDGET }),
      now: clock.now(),
    },
    'ready',
  );
  const baselineRequests = svc.requestCount() - before;
  const baselineAt = clock.now();
  await clock.advance(1);
  svc.simulator.attach(clock);

  let oursRequests = 0;
  const cycles = Math.ceil((MINUTES * 60) / INTERVAL_S);
  for (let i = 0; i < cycles; i++) {
    await clock.advance(INTERVAL_S * 1000);
    const b = svc.requestCount();
    await childCall(child, { type: 'tick', now: clock.now() }, 'polled');
    oursRequests += svc.requestCount() - b;
  }
  const trafficEnd = clock.now();
  svc.simulator.detachClock();
  for (let i = 0; i < Math.ceil((SETTLE_MINUTES * 60) / INTERVAL_S); i++) {
    await clock.advance(INTERVAL_S * 1000);
    await childCall(child, { type: 'tick', now: clock.now() }, 'polled');
  }
  const closed = await childCall(child, { type: 'close' }, 'closed');

  truth.stop();
  const expected = truth.expected({ baselineAt, watched: new Set(addresses), network: 'mainnet' });
  const { missed, duplicates, unexpected } = compare(expected, alerts.slice(DROP));
  const naiveRequests = addresses.length * cycles;
  const minutes = (trafficEnd - baselineAt) / 60_000;
  const peakRssMb = Math.round((Number(closed.peakRss) / 1024 / 1024) * 10) / 10;
  const result = {
    bench: 'headless',
    profile: REALISTIC ? 'realistic' : 'plain',
    simulatedMinutes: Math.round(minutes * 10) / 10,
    watchedAddresses: addresses.length,
    messagesPerSecond: RATE,
    pollIntervalSeconds: INTERVAL_S,
    alertsExpected: expected.size,
    alertsMissed: missed.length,
    injectedMisses: DROP,
    duplicateAlerts: duplicates,
    unexpectedAlerts: unexpected.length,
    alertRequests,
    requests: { ours: oursRequests, naive: naiveRequests, naiveIsComputed: true },
    oursOverNaive: Math.round((oursRequests / Math.max(1, naiveRequests)) * 10000) / 10000,
    baselineRequests,
    watchlistSyncMs: ready.syncMs,
    peakRssMb,
    favorMemory,
    wallSeconds: Math.round((Date.now() - wallStart) / 1000),
  };
  report(
    result,
    judgeTargets({
      missed: [missed.length, 0],
      duplicates: [duplicates, 0],
      unexpected: [unexpected.length, 0],
      oursOverNaive: [result.oursOverNaive, 0.01],
      peakRssMb: [peakRssMb, 199.9],
    }),
  );
  if (process.env.BENCH_DEBUG)
    for (const k of [...missed.slice(0, 8), ...unexpected.slice(0, 4)]) console.error(missed.includes(k) ? 'MISSED' : 'UNEXPECTED', k);
  receiver.close();
  await svc.close();
  rmSync(work, { recursive: true, force: true });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
