/**
 * `npm run bench:relayers`: the core's relayer figures and alerts against the local service in its
 * realistic profile, two simulated hours at 20 messages/s, five watched routes (mainnet's busy ones),
 * eight relayers watched (one scheduled outage, one slow-down), at the app's defaults: its poll interval and its plan (keyless:
 * unauthenticated; BENCH_PLAN=free sends a key), the service's public CU limits on. Its spend is judged by what the service
 * counted against the published plan (bench/judge.ts), never by the core's budget, which the bench never sets.
 * Truth from the simulator's records (bench/relayer-truth.ts). Deliveries the core has not read yet are excused by the stated
 * re-check cadence and its status bar's "behind", of which at most 30 min (bench/not-read-yet.ts; a target of its own).
 * Proof it fails (test/bench/relayers-judge.test.ts): BENCH_INJECT_DROPS loses deliveries in the core's cache,
 * BENCH_INJECT_MISSES / _DUPLICATES drop or repeat the relayer alerts it showed, BENCH_INJECT_OVERSPEND spends as the core.
 * Prints one JSON line; exits 1 on a miss.
 */
import { join } from 'node:path';
import { startLocalService, type RelayerSchedule, type RouteRef } from '../src/local-service';
import { planRoutes } from '../src/simulator/route-plan';
import { DEFAULT_SETTINGS } from '../src/shared/contract';
import type { RelayerOverview } from '../src/shared/relayers';
import { ManualClock } from '../src/shared/clock';
import { startBundledChild } from './bundle-child';
import { childCall, initChild } from './child-call';
import { injected, overspend, tamper } from './inject';
import { judgeSpend } from './judge';
import { BEHIND_EXCUSED_MAX_MS, behindExcusedMs } from './not-read-yet';
import { figuresOf, RelayerTruth, type Figures } from './relayer-truth';
import { benchPlan } from './relayers-plan';
import { missingDeliveries, notYetDue, tally } from './relayers-missing';
import { ServiceCount } from './service-count';
import { envNumber, judgeTargets, report } from './targets';
import { makeWorkDir, removeWorkDir } from './work-dir';

const MIN = 60_000;
const SEED = 42;
const MINUTES = envNumber('BENCH_MINUTES', 120);
const SETTLE_MINUTES = envNumber('BENCH_SETTLE_MINUTES', 5);
const RATE = envNumber('BENCH_RATE', 20);
const INTERVAL_S = envNumber('BENCH_INTERVAL_S', DEFAULT_SETTINGS.pollIntervalSeconds);
const SILENT_MIN = envNumber('BENCH_SILENT_MINUTES', 5);
const PENDING_MIN = envNumber('BENCH_PENDING_MINUTES', 2);
/** The outage and the slow-down, minutes after the start (scaled down with a short run). */
const OUTAGE = { startMs: Math.round(MINUTES * 0.33 * MIN), durationMs: Math.round(Math.min(12, MINUTES * 0.1) * MIN) };
const SLOWDOWN = { startMs: Math.round(MINUTES * 0.6 * MIN), durationMs: Math.round(Math.min(15, MINUTES * 0.125) * MIN), factor: 6 };
const ROUTES = 5;
/** Test only (test/bench/relayers-judge.test.ts): delivered route messages the core's cache is made to lose before the figures. */
const INJECT_DROPS = envNumber('BENCH_INJECT_DROPS', 0);
/** Test only: the relayer alerts the core showed, some dropped or repeated, and calls made as the core (bench/inject.ts). */
const INJECT = injected();
/** The plan the core runs on and its spend is judged by (bench/relayers-plan.ts); the bench never sets the core's budget. */
const PLAN = benchPlan();
const intervalMs = INTERVAL_S * 1000;

function schedule(routes: RouteRef[]): RelayerSchedule {
  const all = routes;
  return {
    relayers: [
      { name: 'fast', behaviour: 'fast', routes: all, share: 3, delayFactor: 0.3 },
      { name: 'slow', behaviour: 'slow', routes: all, share: 1, delayFactor: 3 },
      { name: 'outage', behaviour: 'outage', routes: all.slice(0, 3), share: 2, outages: [OUTAGE] },
      { name: 'slowdown', behaviour: 'steady', routes: all, share: 2, slowdowns: [SLOWDOWN] },
      { name: 'takeover', behaviour: 'takeover', routes: all.slice(3, 4), share: 1, takeover: { from: 'fast', atMs: Math.round(MINUTES * 0.5 * MIN) } },
      { name: 'steady-1', behaviour: 'steady', routes: all, share: 1 },
      { name: 'steady-2', behaviour: 'steady', routes: all.slice(1), share: 1 },
      { name: 'steady-3', behaviour: 'steady', routes: all.slice(0, 4), share: 1 },
      // Every route not watched is this one's (unwatched), so the eight above deliver on watched routes alone.
      { name: 'elsewhere', behaviour: 'steady', share: 1 },
    ],
  };
}

const round = (n: number | null, d = 1) => (n === null ? null : Math.round(n * 10 ** d) / 10 ** d);

async function main(): Promise<void> {
  const wallStart = Date.now();
  const work = makeWorkDir('relayers');
  // 00:00 UTC: the run is the day's first spend, so the budget's pace line holds from its first minute (at noon
  // the core may first spend the morning's unspent share, as the budget allows).
  const start = Date.UTC(2026, 0, 1, 0);
  const clock = new ManualClock(start);
  // What the service charged and refused, per caller: the spend is judged on these alone.
  const count = new ServiceCount(clock);
  const busy = planRoutes(SEED)
    .busy.mainnet.slice(0, ROUTES)
    .map(([r]) => ({ source: r.source.blockchainId, destination: r.destination.blockchainId, label: `${r.source.name}>${r.destination.name}` }));
  const svc = await startLocalService({
    clock,
    seed: SEED,
    rate: RATE,
    realistic: true,
    relayers: schedule(busy.map(({ source, destination }) => ({ source, destination }))),
    // The public plans' CU limits on (the realistic profile's: a key is Free, no key unauthenticated).
    ...PLAN.service,
    onCharge: count.onCharge,
    onRefused: count.onRefused,
  });
  const truth = new RelayerTruth(svc, new Map(busy.map((r) => [`${r.source}>${r.destination}`, r.label])));
  const named = svc.simulator.demoRelayers();
  const labelOf = new Map(named.map((r) => [r.address.toLowerCase(), r.name]));
  const watched = named.filter((r) => r.name !== 'elsewhere');
  const child = await startBundledChild('relayers-bench-child', work, ['node:sqlite', '@napi-rs/keyring']);

  svc.simulator.detachClock();
  await initChild(child, svc.url, work, clock.now(), {
    routes: busy,
    relayers: watched.map((r) => ({ address: r.address, label: r.name })),
    silentMinutes: SILENT_MIN,
    pendingMinutes: PENDING_MIN,
    apiKey: PLAN.apiKey,
  });
  await clock.advance(1);
  svc.simulator.attach(clock);
  const requestsAtStart = count.requests(PLAN.caller);

  const shown: { title: string; at: number }[] = [];
  // How far behind the core's reads were (its poll status: the budget cut a cycle short), the worst and the last.
  const behind = { maxMs: 0, lastMs: 0, cutCycles: 0 };
  const cycle = async () => {
    await clock.advance(intervalMs);
    const r = await childCall(child, { type: 'tick', now: clock.now() }, 'polled');
    shown.push(...(r.shown as { title: string; at: number }[]));
    const ms = (r.status as { behindMs?: number | null }).behindMs ?? 0;
    behind.lastMs = ms;
    behind.maxMs = Math.max(behind.maxMs, ms);
    if (ms > 0) behind.cutCycles++;
  };
  for (let i = 0; i < Math.ceil((MINUTES * 60_000) / intervalMs); i++) await cycle();
  const trafficEnd = clock.now();
  const trafficRequests = count.requests(PLAN.caller) - requestsAtStart;
  const trafficMinutes = (clock.now() - start) / MIN;
  // Traffic stops; the core catches up with the last changes before its figures are judged.
  svc.simulator.detachClock();
  for (let i = 0; i < Math.ceil((SETTLE_MINUTES * 60_000) / intervalMs); i++) await cycle();
  const overview = (await childCall(child, { type: 'overview', injectDrops: INJECT_DROPS }, 'overview')).overview as RelayerOverview;
  const closed = await childCall(child, { type: 'close' }, 'closed');
  truth.stop();
  const now = overview.at;

  const all = truth.deliveries();
  // Which deliveries the figures lack and what the core holds for each (its database, read-only).
  // A delivery the core has not read yet is excused when its re-check is not due yet by the stated cadence
  // (or the status bar said the reads were that far behind, at most BEHIND_EXCUSED_MAX_MS of it): the figures
  // are judged against the truth the core could have read (like with like, latency too). Anything else
  // missing is a drop and fails (bench/relayers-missing.ts `notYetDue`).
  const inWindow = all.filter((d) => d.deliveredAt > now - 24 * 60 * MIN && d.deliveredAt <= now);
  const gaps = missingDeliveries(join(work, 'core'), inWindow, now, start);
  const notYet = gaps.missing.filter((m) => notYetDue(m, intervalMs, behind.lastMs));
  const excused = new Set(notYet.map((m) => m.messageId));
  const dropped = gaps.missing.filter((m) => !excused.has(m.messageId));
  const bucket = (s: number) => (s < 60 ? '<1m' : s < 300 ? '1-5m' : s < 900 ? '5-15m' : s < 3600 ? '15-60m' : '>1h');
  const missing = {
    count: gaps.missing.length,
    notYetDue: notYet.length,
    dropped: dropped.length,
    extraInCore: gaps.extra,
    byState: tally(gaps.missing, (m) => m.state),
    byRoute: tally(gaps.missing, (m) => m.route),
    byRelayer: tally(gaps.missing, (m) => labelOf.get(m.deliverer) ?? m.deliverer),
    deliveredBeforeEnd: tally(gaps.missing, (m) => bucket(m.deliveredBeforeEndS)),
    visibleAfter: tally(gaps.missing, (m) => bucket(m.visibleAfterS)),
    readBeforeEnd: tally(gaps.missing, (m) => (m.readBeforeEndS === null ? 'never' : bucket(m.readBeforeEndS))),
    latency: tally(gaps.missing, (m) => (m.latencyS === null ? 'unknown' : bucket(m.latencyS))),
    trackingEnded: tally(gaps.missing, (m) => m.trackingEnded ?? 'no'),
    sample: dropped.slice(0, 12).map((m) => ({ ...m, deliverer: labelOf.get(m.deliverer) ?? m.deliverer })),
  };
  // Figures: the core's per relayer, per relayer and route, per route, against the truth's.
  const deliveries = all.filter((d) => !excused.has(d.messageId));
  const routeLabel = new Map(overview.routes.map((r) => [r.route.id, r.route.label]));
  let countMismatches = 0;
  let rewardMismatches = 0;
  let worstLatencyGapS = 0;
  const perRelayer: Record<string, unknown> = {};
  const latencyGap = (a: Figures['latency'], b: { p50: number; p95: number } | null) =>
    a === null || b === null ? (a === b ? 0 : Infinity) : Math.max(Math.abs(a.p50 - b.p50), Math.abs(a.p95 - b.p95));
  for (const row of overview.relayers) {
    const name = labelOf.get(row.address.toLowerCase()) ?? row.address;
    const mine = deliveries.filter((d) => d.deliverer.toLowerCase() === row.address.toLowerCase());
    const t = figuresOf(mine, now);
    const byRoute: Record<string, [number, number]> = {};
    for (const rs of row.routes) {
      const label = routeLabel.get(rs.routeId)!;
      const tr = figuresOf(
        mine.filter((d) => d.route === label),
        now,
      ).deliveries24h;
      byRoute[label] = [rs.deliveries, tr];
      if (rs.deliveries !== tr) countMismatches++;
    }
    // A route the truth has deliveries on that the core's row lacks: all of them missed.
    for (const label of new Set(mine.map((d) => d.route))) {
      if (label in byRoute) continue;
      countMismatches++;
      byRoute[label] = [
        0,
        figuresOf(
          mine.filter((d) => d.route === label),
          now,
        ).deliveries24h,
      ];
    }
    if (row.deliveries24h !== t.deliveries24h) countMismatches++;
    if (row.deliveriesLastHour !== t.deliveriesLastHour) countMismatches++;
    const gap = latencyGap(t.latency, row.latency);
    worstLatencyGapS = Math.max(worstLatencyGapS, gap);
    const coreRewards = Object.fromEntries(row.rewards.map((r) => [r.token.toLowerCase(), r.value]));
    if (JSON.stringify(Object.entries(coreRewards).sort()) !== JSON.stringify(Object.entries(t.rewards).sort())) rewardMismatches++;
    perRelayer[name] = {
      deliveries24h: [row.deliveries24h, t.deliveries24h],
      lastHour: [row.deliveriesLastHour, t.deliveriesLastHour],
      latencyP50P95: [row.latency && [row.latency.p50, row.latency.p95], t.latency && [t.latency.p50, t.latency.p95]],
      byRoute,
    };
  }
  // A relayer the truth saw that the core has no row for: every one of its deliveries missed.
  for (const a of new Set(deliveries.map((d) => d.deliverer.toLowerCase())))
    if (!overview.relayers.some((r) => r.address.toLowerCase() === a)) countMismatches++;
  const perRoute: Record<string, unknown> = {};
  for (const row of overview.routes) {
    const t = figuresOf(
      deliveries.filter((d) => d.route === row.route.label),
      now,
    );
    if (row.deliveries24h !== t.deliveries24h || row.deliveriesLastHour !== t.deliveriesLastHour) countMismatches++;
    worstLatencyGapS = Math.max(worstLatencyGapS, latencyGap(t.latency, row.latency));
    perRoute[row.route.label] = { deliveries24h: [row.deliveries24h, t.deliveries24h], lastHour: [row.deliveriesLastHour, t.deliveriesLastHour] };
  }

  // Alerts: the outage relayer's one episode, none for the others.
  const outageName = 'outage';
  const outageAddress = named.find((r) => r.name === outageName)!.address.toLowerCase();
  const outageFrom = start + OUTAGE.startMs;
  const outageTo = outageFrom + OUTAGE.durationMs;
  const back = all
    .filter((d) => d.deliverer.toLowerCase() === outageAddress && d.deliveredAt >= outageTo)
    .reduce((m, d) => Math.min(m, d.deliveredAt), Infinity);
  const of = (s: { title: string }) => s.title.slice(s.title.indexOf(':') + 2);
  // Once the traffic stops (the settle minutes) no relayer delivers: a silence alert then, a threshold
  // after the relayer's last delivery in the truth, is true, and counted apart (not judged as healthy).
  const addressOf = new Map(named.map((r) => [r.name, r.address.toLowerCase()]));
  const lastDelivery = (name: string, at: number) =>
    all.filter((d) => d.deliverer.toLowerCase() === addressOf.get(name) && d.deliveredAt <= at).reduce((m, d) => Math.max(m, d.deliveredAt), -Infinity);
  const silentSinceTrafficStopped = (s: { title: string; at: number }) => s.at >= trafficEnd && s.at - lastDelivery(of(s), s.at) >= SILENT_MIN * MIN;
  // The alerts as the core showed them (tampered only by the failing test's injections).
  const alerts = tamper(shown, INJECT);
  const allFires = alerts.filter((s) => s.title.startsWith('Relayer silent:'));
  const fires = allFires.filter((s) => !silentSinceTrafficStopped(s));
  const resolves = alerts.filter((s) => s.title.startsWith('Relayer delivering again:'));
  const outageFires = fires.filter((s) => of(s) === outageName);
  const outageResolves = resolves.filter((s) => of(s) === outageName);
  const healthyAlerts = fires.filter((s) => of(s) !== outageName).length;
  const duplicates = Math.max(0, outageFires.length - 1) + Math.max(0, outageResolves.length - 1);
  const fireAfterS = outageFires[0] ? (outageFires[0].at - outageFrom) / 1000 : null;
  const resolveAfterS = outageResolves[0] && Number.isFinite(back) ? (outageResolves[0].at - back) / 1000 : null;

  const naivePerMinute = ROUTES * (60 / INTERVAL_S);
  // Every request of the run (the first poll, the traffic and the settle minutes), as the service counted it,
  // against the published plan: the day's quota spread from 00:00 UTC (the run's start), its minute, no 429.
  await overspend(svc.url, INJECT.overspend, PLAN.apiKey ?? undefined);
  const spend = judgeSpend(count, PLAN.caller, PLAN.plan, start, clock.now(), count.refused(PLAN.caller));
  const trafficPerMinute = trafficRequests / trafficMinutes;
  const peakRssMb = Math.round((Number(closed.peakRss) / 1024 / 1024) * 10) / 10;
  const result = {
    bench: 'relayers',
    profile: 'realistic',
    simulatedMinutes: Math.round(trafficMinutes),
    settleMinutes: SETTLE_MINUTES,
    messagesPerSecond: RATE,
    pollIntervalSeconds: INTERVAL_S,
    routes: busy.map((r) => r.label),
    relayers: watched.length,
    deliveriesOnWatchedRoutes: all.length,
    ...(INJECT_DROPS ? { injectedDrops: INJECT_DROPS } : {}),
    ...(INJECT.misses || INJECT.duplicates || INJECT.overspend ? { injected: INJECT } : {}),
    schedule: { outage: OUTAGE, slowdown: SLOWDOWN, silentMinutes: SILENT_MIN, pendingMinutes: PENDING_MIN },
    figures: { countMismatches, rewardMismatches, worstLatencyGapS: round(worstLatencyGapS, 3), missing, perRoute, perRelayer },
    alerts: {
      outageFires: outageFires.length,
      outageResolves: outageResolves.length,
      fireAfterOutageStartS: round(fireAfterS),
      returnedAfterOutageEndS: Number.isFinite(back) ? round((back - outageTo) / 1000) : null,
      resolveAfterReturnS: round(resolveAfterS),
      healthyAlerts,
      duplicates,
      silentAfterTrafficStopped: {
        count: allFires.length - fires.length,
        judged: false,
        why: `the traffic stops for the settle minutes: ${SILENT_MIN} min after its last delivery every relayer is silent in fact`,
      },
      shown: alerts,
    },
    spend,
    requests: { trafficPerMinute: round(trafficPerMinute), naivePerMinute, shareOfNaive: round(trafficPerMinute / naivePerMinute, 3) },
    behind: {
      maxS: behind.maxMs / 1000,
      atEndS: behind.lastMs / 1000,
      excusedS: behindExcusedMs(behind.lastMs) / 1000,
      cyclesCutShort: behind.cutCycles,
    },
    peakRssMb,
    wallSeconds: Math.round((Date.now() - wallStart) / 1000),
  };
  const verdict = judgeTargets({
    droppedDeliveries: [dropped.length, 0],
    extraDeliveries: [gaps.extra, 0],
    countMismatches: [countMismatches, 0],
    rewardMismatches: [rewardMismatches, 0],
    latencyGapS: [worstLatencyGapS, 1],
    // A missing alert (null) misses its target.
    fireAfterOutageStartS: [fireAfterS, SILENT_MIN * 60 + 2 * INTERVAL_S],
    resolveAfterReturnS: [resolveAfterS, 2 * INTERVAL_S],
    healthyAlerts: [healthyAlerts, 0],
    duplicateEpisodes: [duplicates, 0],
    // The core's own "behind" excuses deliveries not read yet: at most the stated lateness, else this fails.
    behindExcusedMinutes: [round(behind.lastMs / MIN, 2), BEHIND_EXCUSED_MAX_MS / MIN],
    spendOverPlan: [spend.over === null ? 0 : 1, 0],
    peakRssMb: [peakRssMb, 149.9],
  });
  report(result, verdict);
  await svc.close();
  removeWorkDir(work);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
