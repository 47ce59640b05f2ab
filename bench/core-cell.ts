/**
 * One run of the core bench (one "cell"): the monitor core, bundled in a child process whose clock the
 * parent sets before each poll, against the local service in the same process; beside it, on the same
 * world and clock, the two fair pollers (the list poller and the per-address poller), each with its own
 * API key (its own quota at the service's plan). All three are judged against one ground truth
 * (test/support/ground-truth.ts) and by the one verdict (bench/verdict.ts), their spend as the service
 * counted it (bench/service-count.ts: the core is the keyless `anonymous` caller). `npm run bench` runs
 * one cell; `npm run bench:grid` the matrix.
 */
import type { PlanName } from '../src/shared/plans';
import { ManualClock } from '../src/shared/clock';
import type { KeepUp } from '../src/shared/contract';
import { compare, GroundTruth, latencies, percentile, type Comparison, type Detection } from '../test/support/ground-truth';
import { FAIR_POLLER_KEYS, startBenchService } from './bench-service';
import { startBundledChild } from './bundle-child';
import { childCall, initChild } from './child-call';
import { AddressPoller } from './fair-pollers/address-poller';
import { ListPoller } from './fair-pollers/list-poller';
import { WatchPoller } from './fair-pollers/watch-poller';
import { gridRoutes } from './grid-routes';
import { injected, overspend, tamper } from './inject';
import { judgeSpend } from './judge';
import { keepsUp, physicalFigures, physicalLimit } from './physical-limit';
import { ServiceCount } from './service-count';
import { markStatedLimits } from './stated-limits';
import { storedPending } from './stored-pending';
import { judgeWatcher, overStatedBound, type Contender } from './verdict';
import { keepsUp as lateReadsFit } from './day-keeps-up';
import { runHeader, type RunKnobs } from './world-knobs';

/** The core's caller at the service: it sends no key (the keyless plan), the fair pollers each their own. */
const CORE_CALLER = 'anonymous';

export interface CellKnobs extends RunKnobs {
  /** The core's request budget a minute as custom plan figures; null: the app's default plan (keyless: unauthenticated). */
  budget: number | null;
  /** The service's limits: a public plan for every caller (each fair poller its own key), or null: none a bench meets. */
  servicePlan: PlanName | null;
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
  /** Expected under a stated limit (bench/stated-limits.ts) and not reported: counted apart, never silent. */
  limitsReached: c.limits,
  unexpectedByKind: byKind(c.unexpected),
  firstMissed: c.missed.slice(0, 5),
});

/** Runs one cell in `work` (a fresh folder); returns its figures (judging them is the caller's). */
export async function runCoreCell(k: CellKnobs, work: string) {
  const intervalMs = k.intervalS * 1000;
  const inIntervals = (n: number | null) => (n === null ? null : Math.round((n / intervalMs) * 100) / 100);
  const perMinute = (n: number, minutes: number) => Math.round(n / minutes);
  const clock = new ManualClock(Date.UTC(2026, 0, 1, k.startHourUtc));
  const count = new ServiceCount(clock);
  const svc = await startBenchService(clock, {
    rate: k.rate,
    addresses: k.addresses,
    preload: k.preload,
    realistic: k.realistic,
    onCharge: count.onCharge,
    onRefused: count.onRefused,
    ...(k.servicePlan ? { plan: k.servicePlan } : {}),
  });
  const oursNow = () => count.requests(CORE_CALLER);
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
  let before = oursNow();
  await initChild(child, svc.url, work, clock.now(), {
    addresses,
    intervalSeconds: k.intervalS,
    budget: k.budget,
    stuckMinutes: k.stuckMinutes,
    ...(routeSet
      ? { routes: routeSet.filters.map((f) => ({ source: f.sourceBlockchainId, destination: f.destinationBlockchainId })), relayers: routeSet.relayers }
      : {}),
  });
  const ours = { baseline: oursNow() - before, traffic: 0, settle: 0, injected: 0 };
  await list?.cycle(true);
  await perAddress?.cycle(true);
  const listKey = FAIR_POLLER_KEYS.list;
  const perAddressKey = FAIR_POLLER_KEYS.perAddress;
  const baselineRequests = { list: count.requests(listKey), perAddress: count.requests(perAddressKey) };
  const baselineAt = clock.now();
  await clock.advance(1);
  svc.simulator.attach(clock);

  const detected: Detection[] = [];
  let peakTracked = 0;
  // A holder, not a `let`: assigned in the cycle closure, read after it (TypeScript would narrow a `let` to null).
  const said: { keepUp: (KeepUp & { cycles: number }) | null } = { keepUp: null };
  let maxBehindMs = 0;
  let rateLimitedCycles = 0;
  /** When each watched address went live (its baseline done, as the Watchlist shows it); absent: not yet. */
  const liveAt = new Map<string, number>();
  const cycleTimes: number[] = [];
  const cycle = async (phase: 'traffic' | 'settle') => {
    await clock.advance(intervalMs);
    cycleTimes.push(clock.now());
    before = oursNow();
    const r = await childCall(child, { type: 'tick', now: clock.now() }, 'polled');
    ours[phase] += oursNow() - before;
    detected.push(...(r.transitions as Detection[]));
    const baselining = new Set((r.baselining as string[]).map((a) => a.toLowerCase()));
    for (const a of addresses) if (!liveAt.has(a.toLowerCase()) && !baselining.has(a.toLowerCase())) liveAt.set(a.toLowerCase(), clock.now());
    const status = r.status as { tracked?: number; behindMs?: number | null; state?: string; keepUp?: KeepUp | null };
    if (status.keepUp) said.keepUp = { ...status.keepUp, cycles: (said.keepUp?.cycles ?? 0) + 1 };
    peakTracked = Math.max(peakTracked, status.tracked ?? 0);
    maxBehindMs = Math.max(maxBehindMs, status.behindMs ?? 0);
    if (status.state === 'rate_limited') rateLimitedCycles++;
    // A fair poller the service refused (429) is out of the comparison: it stops there (going on would only cost wall time).
    if (list && !list.refused) await list.cycle();
    if (perAddress && !perAddress.refused) await perAddress.cycle();
  };
  for (let i = 0; i < Math.ceil((k.minutes * 60) / k.intervalS); i++) await cycle('traffic');
  const trafficEnd = clock.now();
  const listAtTrafficEnd = count.requests(listKey);
  const perAddressAtTrafficEnd = count.requests(perAddressKey);
  // Traffic stops; every poller catches up with the last changes.
  svc.simulator.detachClock();
  for (let i = 0; i < Math.ceil((k.settleMinutes * 60) / k.intervalS); i++) await cycle('settle');
  const endAt = clock.now();
  const closed = await childCall(child, { type: 'close' }, 'closed');
  truth.stop();
  // Proof the judge fails (never in a measured run): more requests as the core's caller, reports dropped or repeated.
  const inj = injected();
  before = oursNow();
  await overspend(svc.url, inj.overspend);
  ours.injected = oursNow() - before;

  // `stuck` near a delivery, the baseline or the end is either way: within the slowest re-check cadence of a pending message (5 intervals) and one more.
  const stuck = { thresholdMs: stuckMs, endAt, marginMs: 6 * intervalMs };
  const expected = truth.expected({
    baselineAt,
    watched: routeSet?.onRoutes ?? new Set(addresses),
    network: 'mainnet',
    ...(routeSet ? {} : { stuck }),
    receipts,
  });
  const limitsCovered = markStatedLimits(expected, { store: svc.store, truth, baselineAt, liveAt: (a) => liveAt.get(a.toLowerCase()) ?? endAt, addresses });
  const judged = compare(expected, tamper(detected, inj));
  const { onTime, late } = latencies(judged.hits, intervalMs);
  const lateOverBound = late.filter((l) => l.afterVisible > 2 * intervalMs).length;
  const minutes = (trafficEnd - baselineAt) / 60_000;
  const oursTotal = oursNow();
  const oursCu = count.cu(CORE_CALLER);
  // Every caller by the one spend rule over the same span, from the same start of day.
  const spendOf = (caller: string) => (k.servicePlan ? judgeSpend(count, caller, k.servicePlan, baselineAt, endAt, count.refused(caller)) : null);
  const fairPoller = (name: string, p: ListPoller | AddressPoller | WatchPoller | null, key: string, baseline: number, atTrafficEnd: number) => {
    if (!p) return null;
    const c = compare(expected, p.detections);
    const lat = latencies(c.hits, intervalMs).onTime;
    const total = count.requests(key);
    const contender: Contender = {
      name,
      missed: c.missed.length,
      duplicates: c.duplicates,
      unexpected: c.unexpected.length,
      cu: count.cu(key),
      requests: total,
      spend: spendOf(key),
    };
    const figures = {
      ...tally(c),
      requests: { baseline, traffic: atTrafficEnd - baseline, settle: total - atTrafficEnd, total },
      cu: contender.cu,
      spend: contender.spend,
      trafficPerMinute: perMinute(atTrafficEnd - baseline, minutes),
      latencyMs: { p50: ms(percentile(lat, 50)), p95: ms(percentile(lat, 95)) },
      oursOverThis: Math.round((oursCu / Math.max(1, contender.cu)) * 1000) / 1000,
    };
    return { figures, contender };
  };
  const listPoller = fairPoller('list', list, listKey, baselineRequests.list, listAtTrafficEnd);
  const perAddressPoller = fairPoller(routeSet ? 'per-watch' : 'per-address', perAddress, perAddressKey, baselineRequests.perAddress, perAddressAtTrafficEnd);
  const physical = physicalLimit(svc.store, truth, expected, cycleTimes, intervalMs);
  // From the world and the published plan, never the core: its physical limit and the late-record reads of its rate fit the day pace.
  const planKeepsUp = keepsUp(physical, k.servicePlan) && (k.servicePlan === null || lateReadsFit(k.rate, k.servicePlan, intervalMs).keepsUp);
  const oursAfterBaseline = ours.traffic + ours.settle;
  const oursSpend = spendOf(CORE_CALLER);
  const p95Intervals = inIntervals(percentile(onTime, 95));
  const verdict = judgeWatcher(
    {
      name: 'core',
      missed: judged.missed.length,
      duplicates: judged.duplicates,
      unexpected: judged.unexpected.length,
      cu: oursCu,
      requests: oursTotal,
      spend: oursSpend,
    },
    [listPoller?.contender, perAddressPoller?.contender].filter((c): c is Contender => !!c),
    { p95Intervals, lateOverBound, overStatedBound: overStatedBound(judged.hits, intervalMs) },
    planKeepsUp,
  );
  const peakRssMb = Math.round((Number(closed.peakRss) / 1024 / 1024) * 10) / 10;
  const result = {
    ...runHeader('core', k, minutes, addresses.length),
    startUtc: new Date(baselineAt).toISOString(),
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
    /** Expected transitions a stated limit covers (either way; those not reported are each contender's `limitsReached`). */
    statedLimits: limitsCovered,
    injected: inj,
    ours: {
      ...tally(judged),
      onTime: {
        count: onTime.length,
        latencyMs: {
          p50: ms(percentile(onTime, 50)),
          p95: ms(percentile(onTime, 95)),
          p99: ms(percentile(onTime, 99)),
          max: ms(onTime[onTime.length - 1] ?? null),
        },
        p95Intervals,
        p99Intervals: inIntervals(percentile(onTime, 99)),
      },
      // Records visible after they happened: each must be reported within its lag plus 2 intervals.
      late: {
        count: late.length,
        maxLagMs: Math.round(late.reduce((m, l) => Math.max(m, l.lag), 0)),
        maxAfterVisibleMs: Math.round(late.reduce((m, l) => Math.max(m, l.afterVisible), 0)),
        overLagPlus2Intervals: lateOverBound,
      },
      /** As the service counted the keyless caller: baseline, traffic, settle, injected (a test's overspend). */
      requests: { ...ours, total: oursTotal },
      cu: oursCu,
      spend: oursSpend,
      trafficPerMinute: perMinute(ours.traffic, minutes),
      peakTrackedMessages: peakTracked,
      /** The poll status's "the plan does not keep up" at its last, and in how many cycles it said so (null: never). */
      keepUp: said.keepUp,
      /** The status bar's "behind" at its largest (the budget cut a cycle short). */
      maxBehindSeconds: Math.round(maxBehindMs / 1000),
      rateLimitedCycles,
    },
    listPoller: listPoller?.figures ?? null,
    perAddressPoller: perAddressPoller?.figures ?? null,
    fairPollerDepthMinutes: k.depthMin,
    /** The fewest requests after the baseline any poller could see every transition with (bench/physical-limit.ts), beside the core's. */
    physicalLimit: physicalFigures(physical, verdict.keepsUp, oursAfterBaseline),
    verdict,
    peakRssMb,
  };
  const debug = { judged, expected, detected, baselineAt, truth, svc };
  await Promise.all([list?.close(), perAddress?.close()]);
  const fairUnexpected = perAddress ? compare(expected, perAddress.detections).unexpected : [];
  return { result, debug, fairUnexpected, close: () => svc.close() };
}

/** Each watched relayer's deliveries on the watched routes: expected (the routes' `left_pending` it delivered) and reported. */
function relayerDeliveries(set: ReturnType<typeof gridRoutes>, expected: ReadonlyMap<string, unknown>, judged: Comparison) {
  const hit = new Set(judged.hits.map((h) => h.key));
  return set.relayers.map((a, i) => {
    const keys = [...expected.keys()].filter((key) => key.endsWith(':left_pending') && set.deliveredBy(key.split(':')[0]!) === a.toLowerCase());
    return { relayer: set.relayerNames[i], expected: keys.length, reported: keys.filter((key) => hit.has(key)).length };
  });
}
