/**
 * One run of the core bench (one "cell"): the monitor core, bundled in a child process whose clock the
 * parent sets before each poll, against the local service in the same process; beside it, on the same
 * world and clock, the two fair pollers (the list poller and the per-address poller), each with its own
 * API key (its own quota at the service's plan). All three are judged against one ground truth
 * (test/support/ground-truth.ts). `npm run bench` runs one cell; `npm run bench:grid` the matrix.
 */
import type { PublicPlan } from '../src/local-data-api/compute-units';
import { ManualClock } from '../src/shared/clock';
import { compare, GroundTruth, latencies, percentile, type Comparison, type Detection } from '../test/support/ground-truth';
import { FAIR_POLLER_KEYS, startBenchService } from './bench-service';
import { startBundledChild } from './bundle-child';
import { childCall, initChild } from './child-call';
import { AddressPoller } from './fair-pollers/address-poller';
import { ListPoller } from './fair-pollers/list-poller';
import { WatchPoller } from './fair-pollers/watch-poller';
import { gridRoutes } from './grid-routes';
import { runHeader, type RunKnobs } from './world-knobs';

export interface CellKnobs extends RunKnobs {
  /** The core's request budget a minute as custom plan figures; null: the app's default plan (keyless: unauthenticated). */
  budget: number | null;
  /** The service's limits: a public plan for every caller (each fair poller its own key), or null: none a bench meets. */
  servicePlan: PublicPlan | null;
  fairPollers: boolean;
  /**
   * The grid's fourth watch set: 5 routes and 3 relayers (bench/grid-routes.ts) instead of `addresses`
   * watched addresses (then the size of the simulated world); its per-watch poller replaces the per-address one.
   */
  routes?: boolean;
}

const ms = (n: number | null) => (n === null ? null : Math.round(n));
const byKind = (keys: string[]) =>
  keys.reduce<Record<string, number>>((m, k) => ((m[k.slice(k.indexOf(':') + 1)] = (m[k.slice(k.indexOf(':') + 1)] ?? 0) + 1), m), {});
/** Missed, duplicates and unexpected of one poller, with the first few missed keys to look at. */
const tally = (c: Comparison) => ({
  missed: c.missed.length,
  duplicates: c.duplicates,
  unexpected: c.unexpected.length,
  missedByKind: byKind(c.missed),
  unexpectedByKind: byKind(c.unexpected),
  firstMissed: c.missed.slice(0, 5),
});

/** Runs one cell in `work` (a fresh folder); returns its figures (judging them is the caller's). */
export async function runCoreCell(k: CellKnobs, work: string) {
  const intervalMs = k.intervalS * 1000;
  const inIntervals = (n: number | null) => (n === null ? null : Math.round((n / intervalMs) * 100) / 100);
  const perMinute = (n: number, minutes: number) => Math.round(n / minutes);
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  const svc = await startBenchService(clock, {
    rate: k.rate,
    addresses: k.addresses,
    preload: k.preload,
    realistic: k.realistic,
    ...(k.servicePlan ? { plan: k.servicePlan } : {}),
  });
  const truth = GroundTruth.listen(svc);
  const routeSet = k.routes ? gridRoutes(svc) : null;
  const addresses = routeSet ? [] : svc.simulator.addresses.slice(0, k.addresses);
  // A route's message is followed until its delivery, not its receipt, and never fires `stuck` (its backlog is an episode: src/core/watch/engine.ts).
  const receipts = !routeSet;
  const fairStuck = routeSet ? { firstReachMs: k.stuckMinutes * 60_000 } : { stuckMs: k.stuckMinutes * 60_000 };
  truth.knowStored(storedPending(svc.store));
  // The core runs as bundled JavaScript in plain Node, as in the app (no TypeScript loader in its memory).
  const child = await startBundledChild('core-bench-child', work, ['node:sqlite', '@napi-rs/keyring']);
  const stuckMs = k.stuckMinutes * 60_000;
  const depthMs = k.depthMin * 60_000;
  const list = k.fairPollers
    ? new ListPoller(svc.url, routeSet?.onRoutes ?? addresses, clock, depthMs, { key: FAIR_POLLER_KEYS.list, ...fairStuck, receipts })
    : null;
  const perAddress = !k.fairPollers
    ? null
    : routeSet
      ? new WatchPoller(svc.url, routeSet.filters, routeSet.relayers, routeSet.onRoutes, clock, depthMs, {
          key: FAIR_POLLER_KEYS.perAddress,
          ...fairStuck,
          receipts,
        })
      : new AddressPoller(svc.url, addresses, clock, depthMs, { key: FAIR_POLLER_KEYS.perAddress, stuckMs });

  // Baselines, with no traffic: ours (as many cycles at that instant as the budget allows), then each fair poller's own first read.
  svc.simulator.detachClock();
  let before = svc.requestCount();
  await initChild(child, svc.url, work, clock.now(), {
    addresses,
    intervalSeconds: k.intervalS,
    budget: k.budget,
    stuckMinutes: k.stuckMinutes,
    ...(routeSet
      ? { routes: routeSet.filters.map((f) => ({ source: f.sourceBlockchainId, destination: f.destinationBlockchainId })), relayers: routeSet.relayers }
      : {}),
  });
  const ours = { baseline: svc.requestCount() - before, traffic: 0, settle: 0 };
  await list?.cycle(true);
  await perAddress?.cycle(true);
  const baselineRequests = { list: list?.requests ?? 0, perAddress: perAddress?.requests ?? 0 };
  const baselineAt = clock.now();
  await clock.advance(1);
  svc.simulator.attach(clock);

  const detected: Detection[] = [];
  let peakTracked = 0;
  let maxBehindMs = 0;
  let rateLimitedCycles = 0;
  const cycle = async (phase: 'traffic' | 'settle') => {
    await clock.advance(intervalMs);
    before = svc.requestCount();
    const r = await childCall(child, { type: 'tick', now: clock.now() }, 'polled');
    ours[phase] += svc.requestCount() - before;
    detected.push(...(r.transitions as Detection[]));
    const status = r.status as { tracked?: number; behindMs?: number | null; state?: string };
    peakTracked = Math.max(peakTracked, status.tracked ?? 0);
    maxBehindMs = Math.max(maxBehindMs, status.behindMs ?? 0);
    if (status.state === 'rate_limited') rateLimitedCycles++;
    // A fair poller the service refused (429) is out of the comparison: it stops there (going on would only cost wall time).
    if (list && !list.refused) await list.cycle();
    if (perAddress && !perAddress.refused) await perAddress.cycle();
  };
  for (let i = 0; i < Math.ceil((k.minutes * 60) / k.intervalS); i++) await cycle('traffic');
  const trafficEnd = clock.now();
  const listAtTrafficEnd = list?.requests ?? 0;
  const perAddressAtTrafficEnd = perAddress?.requests ?? 0;
  // Traffic stops; every poller catches up with the last changes.
  svc.simulator.detachClock();
  for (let i = 0; i < Math.ceil((k.settleMinutes * 60) / k.intervalS); i++) await cycle('settle');
  const endAt = clock.now();
  const closed = await childCall(child, { type: 'close' }, 'closed');
  truth.stop();

  // `stuck` near a delivery, the baseline or the end is either way: within the slowest re-check cadence of a pending message (5 intervals) and one more.
  const stuck = { thresholdMs: stuckMs, endAt, marginMs: 6 * intervalMs };
  const expected = truth.expected({
    baselineAt,
    watched: routeSet?.onRoutes ?? new Set(addresses),
    network: 'mainnet',
    ...(routeSet ? {} : { stuck }),
    receipts,
  });
  const judged = compare(expected, detected.slice(k.drop));
  const { onTime, late } = latencies(judged.hits, intervalMs);
  const lateOverBound = late.filter((l) => l.afterVisible > 2 * intervalMs).length;
  const minutes = (trafficEnd - baselineAt) / 60_000;
  const oursTotal = ours.baseline + ours.traffic + ours.settle;
  const fairPoller = (p: ListPoller | AddressPoller | WatchPoller | null, baseline: number, atTrafficEnd: number) => {
    if (!p) return null;
    const c = compare(expected, p.detections);
    const lat = latencies(c.hits, intervalMs).onTime;
    return {
      ...tally(c),
      requests: { baseline, traffic: atTrafficEnd - baseline, settle: p.requests - atTrafficEnd, total: p.requests },
      refusedWalks: p.refused,
      trafficPerMinute: perMinute(atTrafficEnd - baseline, minutes),
      latencyMs: { p50: ms(percentile(lat, 50)), p95: ms(percentile(lat, 95)) },
      oursOverThis: Math.round((oursTotal / Math.max(1, p.requests)) * 1000) / 1000,
    };
  };
  const peakRssMb = Math.round((Number(closed.peakRss) / 1024 / 1024) * 10) / 10;
  const result = {
    ...runHeader('core', k, minutes, addresses.length),
    ...(routeSet
      ? { watchedRoutes: routeSet.labels, watchedRelayers: routeSet.relayerNames, relayerDeliveries: relayerDeliveries(routeSet, expected, judged) }
      : {}),
    messagesPerSecond: k.rate,
    pollIntervalSeconds: k.intervalS,
    plan: k.budget === null ? 'auto (keyless: unauthenticated)' : `${k.budget} requests a minute`,
    serviceLimits: k.servicePlan ?? 'lifted',
    stuckThresholdMinutes: k.stuckMinutes,
    transitionsExpected: [...expected.values()].filter((e) => !e.optional).length,
    stuckExpected: [...expected].filter(([key, e]) => key.endsWith(':stuck') && !e.optional).length,
    ours: {
      ...tally(judged),
      injectedMisses: k.drop,
      onTime: {
        count: onTime.length,
        latencyMs: {
          p50: ms(percentile(onTime, 50)),
          p95: ms(percentile(onTime, 95)),
          p99: ms(percentile(onTime, 99)),
          max: ms(onTime[onTime.length - 1] ?? null),
        },
        p95Intervals: inIntervals(percentile(onTime, 95)),
        p99Intervals: inIntervals(percentile(onTime, 99)),
      },
      // Records visible after they happened: each must be reported within its lag plus 2 intervals.
      late: {
        count: late.length,
        maxLagMs: Math.round(late.reduce((m, l) => Math.max(m, l.lag), 0)),
        maxAfterVisibleMs: Math.round(late.reduce((m, l) => Math.max(m, l.afterVisible), 0)),
        overLagPlus2Intervals: lateOverBound,
      },
      requests: { ...ours, total: oursTotal },
      trafficPerMinute: perMinute(ours.traffic, minutes),
      peakTrackedMessages: peakTracked,
      /** The status bar's "behind" at its largest (the budget cut a cycle short). */
      maxBehindSeconds: Math.round(maxBehindMs / 1000),
      rateLimitedCycles,
    },
    listPoller: fairPoller(list, baselineRequests.list, listAtTrafficEnd),
    perAddressPoller: fairPoller(perAddress, baselineRequests.perAddress, perAddressAtTrafficEnd),
    fairPollerDepthMinutes: k.depthMin,
    peakRssMb,
  };
  const debug = { judged, expected, detected, baselineAt, truth, svc };
  await Promise.all([list?.close(), perAddress?.close()]);
  const fairUnexpected = perAddress ? compare(expected, perAddress.detections).unexpected : [];
  return { result, lateOverBound, debug, fairUnexpected, close: () => svc.close() };
}

/** The records stored before the bench (the preload) still pending: each may become `stuck` without changing. */
export function* storedPending(store: {
  page(q: object, before: number | undefined, limit: number): { records: string[]; positions: number[]; hasMore: boolean };
}) {
  let before: number | undefined;
  for (;;) {
    const page = store.page({}, before, 500);
    for (const raw of page.records) {
      const r = JSON.parse(raw) as Record<string, unknown>;
      if (r.status === 'pending') yield r;
    }
    if (!page.hasMore || !page.positions.length) return;
    before = page.positions[page.positions.length - 1];
  }
}

/** Each watched relayer's deliveries on the watched routes: expected (the routes' `left_pending` it delivered) and reported. */
function relayerDeliveries(set: ReturnType<typeof gridRoutes>, expected: ReadonlyMap<string, unknown>, judged: Comparison) {
  const hit = new Set(judged.hits.map((h) => h.key));
  return set.relayers.map((a, i) => {
    const keys = [...expected.keys()].filter((key) => key.endsWith(':left_pending') && set.deliveredBy(key.split(':')[0]!) === a.toLowerCase());
    return { relayer: set.relayerNames[i], expected: keys.length, reported: keys.filter((key) => hit.has(key)).length };
  });
}
