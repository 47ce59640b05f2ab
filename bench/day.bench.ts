/**
 * `npm run bench:day`: days on an accelerated clock (issues 27 and 42). One day per rate (bench/day-shapes.ts,
 * BENCH_DAY_RATES=0.2,2,20): the calm day, 24 hours at 0.2 messages/s, and busy days, a few hours at
 * 2 or 20 messages/s from 00:00 UTC then calm hours at 0.2. Each in the realistic world with its rare
 * indexer stalls, upstream faults (5xx, 429, requests never answered, resets, malformed bodies) and a
 * world that moves while a cycle reads, the public plans' CU limits on; two cores at the app's defaults
 * (30 s interval, 30 min stuck threshold, plan `auto`), one without a key and one with a key (Free),
 * watching the same 10 addresses and 2 routes, each in its own Node child (bench/day-run.ts).
 *
 * Judged per day and core (bench/day-judge.ts): the spend by judgeSpend from the service's count (its
 * caller `anonymous` or its key against the published plan, from 00:00 UTC); 0 missed, duplicates and
 * unexpected (`stuck` included) by the end of the calm and a 15 min settle; where the plan keeps up
 * (bench/day-keeps-up.ts) on-time p95 within 2 intervals and late records within their bound; "behind"
 * within its target and cap, and where the plan cannot keep up the status bar saying so. Then memory (RSS
 * flat after the first hour, sampled hourly after a full collection) and retention (no settled message
 * past the retention and the 6 hours between prunes at any hourly sample; after a jump, nothing older
 * than the retention). Prints one JSON line; exits 1 when a target is missed (bench/targets.ts).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type Detection } from '../test/support/ground-truth';
import { UPSTREAM_FAULTS } from './bench-service';
import { bundleChild } from './bundle-child';
import { judgeCoreDay } from './day-judge';
import { keepsUp } from './day-keeps-up';
import { publicPlanOf, runDay, type PlanName } from './day-run';
import { dayShapes, rateSuffix } from './day-shapes';
import { injected, tamper } from './inject';
import { envNumber, judgeTargets, report } from './targets';
import { makeWorkDir, removeWorkDir } from './work-dir';

const MB = 1024 * 1024;
const HOUR = 3_600_000;
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

/** The two plans: without a key (unauthenticated) and with a key on Free (BENCH_DAY_PLANS=keyless or free: one). */
const PLANS = (process.env.BENCH_DAY_PLANS ?? 'keyless,free').split(',').map((p) => p.trim());
for (const p of PLANS) if (p !== 'keyless' && p !== 'free') throw new Error(`BENCH_DAY_PLANS: "${p}" is neither keyless nor free.`);

async function main(): Promise<void> {
  const wallStart = Date.now();
  const loadAtStart = loadavg()[0]!;
  const work = makeWorkDir('day');
  const childJs = join(work, 'day-child.cjs');
  await bundleChild(join(__dirname, 'day-child.ts'), childJs, ['node:sqlite', '@napi-rs/keyring']);
  const inject = injected();
  const knobs = {
    plans: PLANS as PlanName[],
    addresses: envNumber('BENCH_ADDRESSES', 10),
    // 6,000 messages at 0.2 msg/s span 8.3 hours: by hour 24 the oldest the baselines stored are older than
    // the retention and the 6 hours between prunes, so the hourly stale check binds within the calm day.
    preload: envNumber('BENCH_PRELOAD', 6_000),
    settleMinutes: envNumber('BENCH_SETTLE_MINUTES', 15),
    retentionDays: 1,
    faults: process.env.BENCH_FAULTS ?? UPSTREAM_FAULTS,
    // Each request the service counts moves the world on by this much (at most half an interval ahead of the clock).
    moveWorldPerRequestMs: envNumber('BENCH_MOVE_PER_REQUEST_MS', 200),
    childJs,
    work,
    inject,
    debug: Boolean(process.env.BENCH_DEBUG),
  };

  const figures: Record<string, [number | null, number]> = {};
  const days = [];
  for (const shape of dayShapes()) {
    const dayWall = Date.now();
    const run = await runDay(shape, knobs);
    const { day } = run;
    const facts = {
      rate: shape.rate,
      intervalMs: day.intervalMs,
      dayStart: day.dayStart,
      calmAt: day.calmAt,
      stalls: day.stallSpans,
      expected: day.expected,
    };
    const cores = run.cores.map((c) => {
      // Proof the judges bite (never in a measured run): reports dropped or repeated before judging.
      const detected = tamper<Detection>(c.detected, inject);
      const keeps = keepsUp(shape.rate, publicPlanOf(c.plan), day.intervalMs);
      const j = judgeCoreDay(facts, { plan: c.plan, keeps, detected, behind: c.behind, spend: c.spend });
      Object.assign(figures, j.figures);
      const p = `${c.plan === 'free' ? 'Free' : 'Keyless'}${rateSuffix(shape.rate)}`;
      const rssGrowthMb = c.rssByHour.length ? round((Math.max(...c.rssByHour) - Math.min(...c.rssByHour)) / MB) : null;
      // Judged from two hourly samples on (a shorter run has no "after the first hour").
      if (c.rssByHour.length >= 2) figures[`rssGrowthMb${p}`] = [rssGrowthMb, 10];
      figures[`staleRows${p}`] = [Number(c.retention.staleMessages) + Number(c.retention.staleTransitions), 0];
      figures[`staleSettledHourly${p}`] = [Math.max(0, ...c.staleByHour), 0];
      if (knobs.debug) debugMisses(c.plan, j.judged, day.expected, detected, run.truth);
      return {
        ...j.result,
        peakTrackedMessages: c.peakTracked,
        quotaLevels: c.quotaLevels,
        rssMbByHour: c.rssByHour.map((b) => round(b / MB)),
        heapUsedMbByHour: c.heapByHour.map((b) => round(b / MB)),
        // The RSS less V8's resident heap: SQLite, the allocator, the runtime.
        outsideV8MbByHour: c.rssByHour.map((b, i) => round((b - c.v8ByHour[i]!) / MB)),
        v8ResidentMbByHour: c.v8ByHour.map((b) => round(b / MB)),
        externalMbByHour: c.externalByHour.map((b) => round(b / MB)),
        rssGrowthAfterFirstHourMb: rssGrowthMb,
        peakRssMb: round(c.peakRss / MB),
        dbMbByHour: c.dbBytesByHour.map((b) => round(b / MB, 2)),
        // Of which the write-ahead log (it keeps its largest size).
        walMbByHour: c.walBytesByHour.map((b) => round(b / MB, 2)),
        cachedMessagesByHour: c.cachedByHour,
        // The most settled messages past the retention (and the 6 hours between prunes) any hourly sample found.
        staleSettledMax: Math.max(0, ...c.staleByHour),
        retention: c.retention,
      };
    });
    await run.close();
    days.push({
      messagesPerSecond: shape.rate,
      busyHours: shape.busyHours,
      calmHours: shape.calmHours,
      calmedAtH: round((day.calmAt - day.dayStart) / HOUR, 2),
      stalls: day.stalls,
      messagesSent: day.messagesSent,
      transitionsExpected: [...day.expected.values()].filter((e) => !e.optional).length,
      transitionsVisibleHalfAnHourLate: [...day.expected.values()].filter((e) => e.visibleAt - e.happenedAt >= 30 * 60_000).length,
      cores,
      wallSeconds: Math.round((Date.now() - dayWall) / 1000),
    });
  }

  const result = {
    bench: 'day',
    plans: PLANS,
    settleMinutes: knobs.settleMinutes,
    watchedAddresses: knobs.addresses,
    watchedRoutes: 2,
    retentionDays: knobs.retentionDays,
    faults: knobs.faults,
    moveWorldPerRequestMs: knobs.moveWorldPerRequestMs,
    injected: inject,
    days,
    loadAverage1m: { start: round(loadAtStart, 2), end: round(loadavg()[0]!, 2) },
    wallSeconds: Math.round((Date.now() - wallStart) / 1000),
  };
  report(result, judgeTargets(figures));
  removeWorkDir(work);
}

/** BENCH_DEBUG: the first misses and unexpected reports of a core, with what the truth saw of each. */
function debugMisses(
  plan: string,
  judged: { missed: string[]; unexpected: string[] },
  expected: ReadonlyMap<string, unknown>,
  detected: readonly Detection[],
  truth: { history(id: string): { steps: readonly unknown[] } | undefined },
): void {
  for (const k of [...judged.missed.slice(0, 6), ...judged.unexpected.slice(0, 4)]) {
    const id = k.split(':')[0]!;
    console.error(
      plan,
      judged.missed.includes(k) ? 'MISSED' : 'UNEXPECTED',
      k,
      JSON.stringify(expected.get(k)),
      'reported',
      JSON.stringify(detected.filter((d) => d.id === id)),
      'history',
      JSON.stringify(truth.history(id)?.steps),
    );
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
