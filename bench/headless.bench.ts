/**
 * `npm run bench:headless`: the headless watcher (config file, outbox, Alertmanager channel) with
 * 10,000 watched addresses against the local service (its realistic profile, CU limits on) at the
 * app's defaults: 30 s interval, the keyless plan's budget, the 30 min stuck threshold. 10 simulated
 * minutes of traffic on a manual clock, then 5 to settle. Alerts go to an Alertmanager-compatible
 * receiver in this process, which keeps every alert it gets. Prints one JSON line; exits 1 on a miss.
 *
 * Alerts are judged against the one ground truth (test/support/ground-truth.ts), with the detection
 * latency targets of `npm run bench`. Beside the watcher, in this process and on the same world, the
 * fair pollers run (bench/fair-pollers): the list poller always, the per-address poller when one page
 * per address per interval fits the plan's minute (else the output says why it is not run). The
 * watcher's requests must not exceed the cheaper fair poller's that missed nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../src/shared/clock';
import { compare, GroundTruth, type Detection } from '../test/support/ground-truth';
import { childCall } from './child-call';
import { ALLOCATOR_ENV, allocatorEnv } from '../bin/allocator-env.cjs';
import { favorMemory, startBundledChild } from './bundle-child';
import { AddressPoller } from './fair-pollers/address-poller';
import { ListPoller } from './fair-pollers/list-poller';
import { headlessKnobs } from './headless-knobs';
import { judgeDetection, tallyPoller } from './headless-judge';
import { startJudgedService } from './headless-service';
import { runHeader } from './world-knobs';
import { judgeTargets, report } from './targets';
import { writeWatcherConfig } from './watcher-config';

const K = headlessKnobs();
const intervalMs = K.intervalS * 1000;
/** The environment variable the watcher's config names for its key (the service tells it apart by it). */
const KEY_ENV = 'TW_BENCH_HEADLESS_KEY';

async function main(): Promise<void> {
  const wallStart = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'tw-headless-bench-'));
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  const svc = await startJudgedService(clock, K);
  const truth = GroundTruth.listen(svc.service);
  const addresses = svc.service.simulator.addresses.slice(0, K.addresses);

  // An Alertmanager stand-in that keeps every alert it is sent (a real one would hide duplicates).
  const alerts: Detection[] = [];
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

  // No TypeScript loader in the child (its memory is the watcher's alone).
  // Started as the `teleporter-watch` command starts the watcher: with its allocator settings (bin/allocator-env.cjs).
  const allocator = allocatorEnv(process.env) ? ALLOCATOR_ENV : {};
  const child = await startBundledChild('headless-bench-child', work, ['@napi-rs/keyring'], { ...allocator, [KEY_ENV]: svc.apiKey });
  const pollerDepthMs = K.depthMin * 60_000;
  const list = new ListPoller(svc.service.url, addresses, clock, pollerDepthMs);
  const perAddressCost = addresses.length * (60 / K.intervalS);
  const perAddressRun = K.perAddress === 'auto' ? perAddressCost <= svc.planRequestsPerMinute : K.perAddress === 'on';
  const perAddress = perAddressRun ? new AddressPoller(svc.service.url, addresses, clock, pollerDepthMs) : null;

  // Baselines with no traffic: the watcher's, then each fair poller's own first read.
  svc.service.simulator.detachClock();
  const ready = await childCall(
    child,
    {
      type: 'init',
      configFile: writeWatcherConfig(join(work, 'watcher'), {
        url: svc.service.url,
        receiverUrl,
        addresses,
        intervalSeconds: K.intervalS,
        plan: K.plan,
        stuckThresholdMinutes: K.stuckMinutes,
        apiKeyEnv: KEY_ENV,
      }),
      now: clock.now(),
    },
    'ready',
  );
  const oursBaseline = svc.counts.ours;
  await list.cycle(true);
  await perAddress?.cycle(true);
  const pollerBaseline = { list: list.requests, perAddress: perAddress?.requests ?? 0 };
  const baselineAt = clock.now();
  await clock.advance(1);
  svc.service.simulator.attach(clock);

  const cycle = async () => {
    await clock.advance(intervalMs);
    await childCall(child, { type: 'tick', now: clock.now() }, 'polled');
    await list.cycle();
    await perAddress?.cycle();
  };
  for (let i = 0; i < Math.ceil((K.minutes * 60) / K.intervalS); i++) await cycle();
  const trafficEnd = clock.now();
  const oursTraffic = svc.counts.ours - oursBaseline;
  svc.service.simulator.detachClock();
  for (let i = 0; i < Math.ceil((K.settleMinutes * 60) / K.intervalS); i++) await cycle();
  const closed = await childCall(child, { type: 'close' }, 'closed');
  truth.stop();

  const expected = truth.expected({ baselineAt, watched: new Set(addresses), network: 'mainnet' });
  // The truth knows no `stuck`: those alerts are counted apart, never judged as hits or as unexpected.
  const stuckAlerts = alerts.filter((a) => a.kind === 'stuck');
  const judged = compare(expected, alerts.filter((a) => a.kind !== 'stuck').slice(K.drop));
  const detection = judgeDetection(judged, intervalMs);
  const oursTotal = svc.counts.ours;
  const listTally = tallyPoller(compare(expected, list.detections), pollerBaseline.list, list.requests, oursTotal, intervalMs);
  const perAddressTally =
    perAddress && tallyPoller(compare(expected, perAddress.detections), pollerBaseline.perAddress, perAddress.requests, oursTotal, intervalMs);
  // The comparison counts only against a poller that missed nothing; the cheaper of those.
  const fair = [listTally, perAddressTally].filter((t) => t !== null && t.missed === 0).map((t) => t!.requests.total);
  const cheaperFair = fair.length ? Math.min(...fair) : null;
  const minutes = (trafficEnd - baselineAt) / 60_000;
  const peakRssMb = Math.round((Number(closed.peakRss) / 1024 / 1024) * 10) / 10;
  const result = {
    ...runHeader('headless', K, minutes, addresses.length),
    messagesPerSecond: K.rate,
    pollIntervalSeconds: K.intervalS,
    plan: svc.planLabel,
    serviceLimits: svc.limitsLabel,
    stuckThresholdMinutes: K.stuckMinutes,
    alertsExpected: expected.size,
    alertsMissed: judged.missed.length,
    injectedMisses: K.drop,
    duplicateAlerts: judged.duplicates,
    unexpectedAlerts: judged.unexpected.length,
    stuckAlerts: {
      count: stuckAlerts.length,
      judged: false,
      why: 'the ground truth knows no stuck yet: counted apart, neither hits nor unexpected',
    },
    detection: detection.figures,
    alertRequests,
    requests: {
      ours: { baseline: oursBaseline, traffic: oursTraffic, settle: oursTotal - oursBaseline - oursTraffic, total: oursTotal },
      oursRateLimited: svc.counts.oursRateLimited,
      listPoller: listTally,
      perAddressPoller: perAddressTally ?? {
        run: false,
        why: `one page per address per interval is ${Math.round(perAddressCost)} requests a minute, over the plan's ${svc.planRequestsPerMinute} (its minute limit): it cannot fit the budget; the list poller is the comparison (BENCH_PER_ADDRESS=on runs it anyway)`,
      },
      cheaperFairPoller: cheaperFair,
      oursOverCheaperFair: cheaperFair === null ? null : Math.round((oursTotal / Math.max(1, cheaperFair)) * 1000) / 1000,
    },
    watchlistSyncMs: ready.syncMs,
    peakRssMb,
    favorMemory,
    wallSeconds: Math.round((Date.now() - wallStart) / 1000),
  };
  report(
    result,
    judgeTargets({
      missed: [judged.missed.length, 0],
      duplicates: [judged.duplicates, 0],
      unexpected: [judged.unexpected.length, 0],
      ...detection.targets,
      // The fair list poller must see everything too, or the comparison means nothing.
      listPollerMissed: [listTally.missed, 0],
      // A missing figure (no fair poller missed nothing) misses its target.
      oursOverCheaperFair: [result.requests.oursOverCheaperFair, 1],
      // The service enforces the plan's public CU limits: the watcher's budget must never meet them.
      rateLimitedAnswers: [svc.counts.oursRateLimited, 0],
      peakRssMb: [peakRssMb, 199.9],
    }),
  );
  if (process.env.BENCH_DEBUG)
    for (const k of [...judged.missed.slice(0, 8), ...judged.unexpected.slice(0, 4)]) console.error(judged.missed.includes(k) ? 'MISSED' : 'UNEXPECTED', k);
  receiver.close();
  await Promise.all([list.close(), perAddress?.close()]);
  await svc.service.close();
  rmSync(work, { recursive: true, force: true });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
