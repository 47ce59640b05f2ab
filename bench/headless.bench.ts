/**
 * `npm run bench:headless`: the headless watcher (config file, outbox, Alertmanager channel) with
 * 10,000 watched addresses against the local service (its realistic profile, CU limits on) at the
 * app's defaults: 30 s interval, the keyless plan's budget, the 30 min stuck threshold. 10 simulated
 * minutes of traffic on a manual clock from 00:00 UTC, then 5 to settle. Alerts go to an
 * Alertmanager-compatible receiver in this process, which keeps every alert it gets. Prints one JSON
 * line; exits 1 on a miss.
 *
 * Alerts (`stuck` too) are judged against the one ground truth (test/support/ground-truth.ts). Beside
 * the watcher, in this process and on the same world, the fair pollers run (bench/fair-pollers), each
 * with its own key on the same plan: the list poller always, the per-address poller when one page per
 * address per interval fits the plan's minute (else the output says why it is not run). All are judged
 * by the one verdict of `npm run bench` and `bench:grid` (bench/verdict.ts), their spend as the service
 * counted it; plus the watcher's p99 (where the plan keeps up) and peak RSS.
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
import { FAIR_POLLER_KEYS } from './bench-service';
import { favorMemory, startBundledChild } from './bundle-child';
import { AddressPoller } from './fair-pollers/address-poller';
import { ListPoller } from './fair-pollers/list-poller';
import { headlessKnobs } from './headless-knobs';
import { judgeDetection, tallyPoller } from './headless-judge';
import { startJudgedService } from './headless-service';
import { injected, overspend, tamper } from './inject';
import { judgeSpend } from './judge';
import { keepsUp, physicalFigures, physicalLimit } from './physical-limit';
import { storedPending } from './stored-pending';
import { runHeader } from './world-knobs';
import { judgeTargets, report } from './targets';
import { judgeWatcher, overStatedBound, type Contender, type NotRun } from './verdict';
import { keepsUp as lateReadsFit } from './day-keeps-up';
import { writeWatcherConfig } from './watcher-config';

const K = headlessKnobs();
const intervalMs = K.intervalS * 1000;
/** The environment variable the watcher's config names for its key (the service tells it apart by it). */
const KEY_ENV = 'TW_BENCH_HEADLESS_KEY';

async function main(): Promise<void> {
  const wallStart = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'tw-headless-bench-'));
  const clock = new ManualClock(Date.UTC(2026, 0, 1, K.startHourUtc));
  const svc = await startJudgedService(clock, K);
  const { count, apiKey } = svc;
  const truth = GroundTruth.listen(svc.service);
  truth.knowStored(storedPending(svc.service.store));
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
  const child = await startBundledChild('headless-bench-child', work, ['@napi-rs/keyring'], { ...allocator, [KEY_ENV]: apiKey });
  const pollerDepthMs = K.depthMin * 60_000;
  const stuckMs = K.stuckMinutes * 60_000;
  const list = new ListPoller(svc.service.url, addresses, clock, pollerDepthMs, { key: FAIR_POLLER_KEYS.list, stuckMs });
  const perAddressCost = addresses.length * (60 / K.intervalS);
  const perAddressRun = K.perAddress === 'auto' ? perAddressCost <= svc.planRequestsPerMinute : K.perAddress === 'on';
  const perAddress = perAddressRun ? new AddressPoller(svc.service.url, addresses, clock, pollerDepthMs, { key: FAIR_POLLER_KEYS.perAddress, stuckMs }) : null;

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
  const oursBaseline = count.requests(apiKey);
  await list.cycle(true);
  await perAddress?.cycle(true);
  const pollerBaseline = { list: count.requests(FAIR_POLLER_KEYS.list), perAddress: count.requests(FAIR_POLLER_KEYS.perAddress) };
  const baselineAt = clock.now();
  await clock.advance(1);
  svc.service.simulator.attach(clock);

  const cycleTimes: number[] = [];
  const cycle = async () => {
    await clock.advance(intervalMs);
    cycleTimes.push(clock.now());
    await childCall(child, { type: 'tick', now: clock.now() }, 'polled');
    await list.cycle();
    await perAddress?.cycle();
  };
  for (let i = 0; i < Math.ceil((K.minutes * 60) / K.intervalS); i++) await cycle();
  const trafficEnd = clock.now();
  const oursTraffic = count.requests(apiKey) - oursBaseline;
  svc.service.simulator.detachClock();
  for (let i = 0; i < Math.ceil((K.settleMinutes * 60) / K.intervalS); i++) await cycle();
  const endAt = clock.now();
  const closed = await childCall(child, { type: 'close' }, 'closed');
  truth.stop();
  const oursAfterBaseline = count.requests(apiKey) - oursBaseline;
  // Proof the judge fails (never in a measured run): more requests with the watcher's key, alerts dropped or repeated.
  const inj = injected();
  await overspend(svc.service.url, inj.overspend, apiKey);

  // `stuck` near a delivery, the baseline or the end is either way (as in `npm run bench`: 6 intervals).
  const stuck = { thresholdMs: stuckMs, endAt, marginMs: 6 * intervalMs };
  const expected = truth.expected({ baselineAt, watched: new Set(addresses), network: 'mainnet', stuck });
  const judged = compare(expected, tamper(alerts, inj));
  const detection = judgeDetection(judged, intervalMs);
  const oursTotal = count.requests(apiKey);
  const spendOf = (key: string) => judgeSpend(count, key, K.plan, baselineAt, endAt, count.refused(key));
  const contender = (name: string, key: string, c: ReturnType<typeof compare>): Contender => ({
    name,
    missed: c.missed.length,
    duplicates: c.duplicates,
    unexpected: c.unexpected.length,
    cu: count.cu(key),
    requests: count.requests(key),
    spend: spendOf(key),
  });
  const listCompared = compare(expected, list.detections);
  const listTally = tallyPoller(listCompared, pollerBaseline.list, count.requests(FAIR_POLLER_KEYS.list), oursTotal, intervalMs);
  const perAddressCompared = perAddress && compare(expected, perAddress.detections);
  const perAddressTally =
    perAddressCompared && tallyPoller(perAddressCompared, pollerBaseline.perAddress, count.requests(FAIR_POLLER_KEYS.perAddress), oursTotal, intervalMs);
  const perAddressWhy = `one page per address per interval is ${Math.round(perAddressCost)} requests a minute, over the plan's ${svc.planRequestsPerMinute} (its minute limit): it cannot fit the budget (BENCH_PER_ADDRESS=on runs it anyway)`;
  const physical = physicalLimit(svc.service.store, truth, expected, cycleTimes, intervalMs);
  const oursSpend = spendOf(apiKey);
  const verdict = judgeWatcher(
    contender('watcher', apiKey, judged),
    [
      contender('list', FAIR_POLLER_KEYS.list, listCompared),
      perAddressCompared
        ? contender('per-address', FAIR_POLLER_KEYS.perAddress, perAddressCompared)
        : ({ name: 'per-address', notRun: perAddressWhy } satisfies NotRun),
    ],
    {
      p95Intervals: detection.figures.onTime.p95Intervals,
      lateOverBound: detection.figures.late.overLagPlus2Intervals,
      overStatedBound: overStatedBound(judged.hits, intervalMs),
    },
    // From the world and the published plan, never the watcher (as bench/core-cell.ts).
    keepsUp(physical, K.plan) && (K.plan === null || lateReadsFit(K.rate, K.plan, intervalMs).keepsUp),
  );
  const minutes = (trafficEnd - baselineAt) / 60_000;
  const peakRssMb = Math.round((Number(closed.peakRss) / 1024 / 1024) * 10) / 10;
  const result = {
    ...runHeader('headless', K, minutes, addresses.length),
    startUtc: new Date(baselineAt).toISOString(),
    messagesPerSecond: K.rate,
    pollIntervalSeconds: K.intervalS,
    plan: svc.planLabel,
    serviceLimits: svc.limitsLabel,
    stuckThresholdMinutes: K.stuckMinutes,
    alertsExpected: [...expected.values()].filter((e) => !e.optional).length,
    stuckExpected: [...expected].filter(([key, e]) => key.endsWith(':stuck') && !e.optional).length,
    alertsMissed: judged.missed.length,
    missedStuck: judged.missed.filter((key) => key.endsWith(':stuck')).length,
    injected: inj,
    duplicateAlerts: judged.duplicates,
    unexpectedAlerts: judged.unexpected.length,
    stuckAlerts: alerts.filter((a) => a.kind === 'stuck').length,
    detection: detection.figures,
    alertRequests,
    requests: {
      /** As the service counted the watcher's key: baseline, traffic, settle, injected (a test's overspend). */
      ours: {
        baseline: oursBaseline,
        traffic: oursTraffic,
        settle: oursAfterBaseline - oursTraffic,
        injected: oursTotal - oursBaseline - oursAfterBaseline,
        total: oursTotal,
      },
      oursSpend,
      listPoller: { ...listTally, spend: spendOf(FAIR_POLLER_KEYS.list) },
      perAddressPoller: perAddressTally ? { ...perAddressTally, spend: spendOf(FAIR_POLLER_KEYS.perAddress) } : { run: false, why: perAddressWhy },
      cheaperFairPoller: verdict.cheaperFair,
      oursOverCheaperFair: verdict.oursOverCheaperFair,
    },
    physicalLimit: physicalFigures(physical, verdict.keepsUp, oursAfterBaseline),
    verdict,
    watchlistSyncMs: ready.syncMs,
    peakRssMb,
    favorMemory,
    wallSeconds: Math.round((Date.now() - wallStart) / 1000),
  };
  report(
    result,
    judgeTargets({
      ...verdict.targets,
      // Like p95, judged only where the plan keeps up (the run's physical limit fits the day pace).
      ...(verdict.keepsUp ? { p99Intervals: detection.targets.p99Intervals } : {}),
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
