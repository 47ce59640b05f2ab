/**
 * `npm run bench:day`: a day on an accelerated clock (issue 27 item 5). The realistic world at 0.2
 * messages/s with its rare indexer stalls, upstream faults (5xx, 429, requests never answered, resets,
 * malformed bodies) and a world that moves while a cycle reads, the public plans' CU limits on. Two cores
 * at the app's defaults (30 s interval, 30 min stuck threshold, plan `auto`), one without a key
 * (unauthenticated) and one with a key (Free), each watching the same 10 addresses and 2 routes, each
 * bundled in its own Node child, on a ManualClock for 24 simulated hours (one UTC day) and 15 minutes to
 * settle. Judged against the ground truth (test/support/ground-truth.ts): the day's CU counted at the
 * service within the plan's daily quota, 0 missed, 0 duplicates, 0 unexpected (`stuck` reports counted
 * apart: the truth has no `stuck` yet), RSS flat after the first hour (sampled each simulated hour), and
 * the database held to the retention setting (at each hourly sample no settled message in the cache past the
 * retention and the 6 hours between prunes; after the day, the clock jumps past it and the pruned file is
 * inspected). Prints one JSON line; exits 1 when a target is missed (bench/targets.ts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { allocatorEnv } from '../bin/allocator-env.cjs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../src/shared/clock';
import { DEFAULT_SETTINGS, type FeedFilter } from '../src/shared/contract';
import { PLAN_LIMITS } from '../src/shared/plans';
import { PRUNE_EVERY_MS } from '../src/shared/policy';
import { compare, GroundTruth, latencies, percentile, type Detection } from '../test/support/ground-truth';
import { startBenchService, UPSTREAM_FAULTS } from './bench-service';
import { bundleChild } from './bundle-child';
import { childCall } from './child-call';
import { envNumber, judgeTargets, report } from './targets';
import { makeWorkDir, removeWorkDir } from './work-dir';

const HOURS = envNumber('BENCH_DAY_HOURS', 24);
const SETTLE_MINUTES = envNumber('BENCH_SETTLE_MINUTES', 15);
const RATE = envNumber('BENCH_RATE', 0.2);
const ADDRESSES = envNumber('BENCH_ADDRESSES', 10);
/**
 * History before the day: 6,000 messages at RATE span 8.3 hours, so by hour 24 the oldest the baselines
 * stored are older than the retention and the 6 hours between prunes: the hourly stale check binds within a day.
 */
const PRELOAD = envNumber('BENCH_PRELOAD', 6_000);
const RETENTION_DAYS = 1;
/** Each request the service counts moves the world on by this much (at most half an interval ahead of the clock). */
const MOVE_PER_REQUEST_MS = envNumber('BENCH_MOVE_PER_REQUEST_MS', 200);
const FAULTS = process.env.BENCH_FAULTS ?? UPSTREAM_FAULTS;
const KEY = 'bench-day-free-key-0001';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MB = 1024 * 1024;

/** The two plans: without a key (unauthenticated) and with a key on Free (BENCH_DAY_PLANS=keyless or free: one). */
const PLANS = (process.env.BENCH_DAY_PLANS ?? 'keyless,free').split(',').map((p) => p.trim());
for (const p of PLANS) if (p !== 'keyless' && p !== 'free') throw new Error(`BENCH_DAY_PLANS: "${p}" is neither keyless nor free.`);

interface Core {
  plan: 'keyless' | 'free';
  child: ChildProcess;
  dataDir: string;
  detected: Detection[];
  rssByHour: number[];
  heapByHour: number[];
  /** V8's heap pages in memory, and V8's external memory, at each hourly sample. */
  v8ByHour: number[];
  externalByHour: number[];
  dbBytesByHour: number[];
  walBytesByHour: number[];
  cachedByHour: number[];
  staleByHour: number[];
  peakTracked: number;
  maxBehindMs: number;
  quotaLevels: Record<string, number>;
  lastStatus: Record<string, unknown> | null;
}

async function startChild(js: string): Promise<ChildProcess> {
  const child = fork(js, [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // --expose-gc: the hourly memory sample is taken after a full collection (day-child.ts).
    execArgv: ['--expose-gc', ...(process.env.BENCH_CHILD_FLAGS ?? '').split(' ').filter(Boolean)],
    // Started as the `teleporter-watch` command starts the watcher: with its allocator settings (bin/allocator-env.cjs).
    env: { ...(allocatorEnv(process.env) ?? process.env), NODE_PATH: join(__dirname, '..', 'node_modules') },
  });
  await new Promise<void>((r) => child.once('message', () => r()));
  return child;
}

const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const byKind = (keys: string[]) =>
  keys.reduce<Record<string, number>>((m, k) => ((m[k.slice(k.indexOf(':') + 1)] = (m[k.slice(k.indexOf(':') + 1)] ?? 0) + 1), m), {});

async function main(): Promise<void> {
  const wallStart = Date.now();
  const loadAtStart = loadavg()[0]!;
  const work = makeWorkDir('day');
  // The run starts at 00:00 UTC, so the simulated day is the service's UTC day (its daily quota).
  const dayStart = Date.UTC(2026, 0, 2);
  const clock = new ManualClock(dayStart);
  // CU the service counted, per caller and UTC day.
  const spent = new Map<string, number>();
  // The world moves during cycles in the day only: not during the first reads (each core's baseline
  // must see the world the truth's baseline time says), nor while the cores settle.
  let moving = false;
  const dayOf = (t: number) => Math.floor(t / DAY);
  const svc = await startBenchService(clock, {
    rate: RATE,
    addresses: 200,
    preload: PRELOAD,
    realistic: true,
    stalls: true,
    faults: FAULTS,
    publicLimits: true,
    apiKeys: [KEY],
    // The world catches up with the clock every 5 s at most (a change is visible within 5 s of its time): far fewer timer hops in a day.
    tickMs: 5_000,
    moveWorld: { perRequestMs: MOVE_PER_REQUEST_MS, maxAheadMs: (DEFAULT_SETTINGS.pollIntervalSeconds * 1000) / 2, when: () => moving },
    onCharge: ({ caller, cu }) => {
      const k = `${caller}|${dayOf(clock.now())}`;
      spent.set(k, (spent.get(k) ?? 0) + cu);
    },
  });
  const truth = GroundTruth.listen(svc);
  const addresses = svc.simulator.addresses.slice(0, ADDRESSES);
  const plan = svc.simulator.routes!;
  const busy = plan.busy.mainnet[0]![0];
  const quiet = plan.quiet.find((r) => r.source.network === 'mainnet')!;
  const routes: FeedFilter[] = [busy, quiet].map((r) => ({ sourceBlockchainId: r.source.blockchainId, destinationBlockchainId: r.destination.blockchainId }));

  const childJs = join(work, 'day-child.cjs');
  await bundleChild(join(__dirname, 'day-child.ts'), childJs, ['node:sqlite', '@napi-rs/keyring']);
  const cores: Core[] = [];
  for (const p of PLANS as Core['plan'][])
    cores.push({
      plan: p,
      child: await startChild(childJs),
      dataDir: join(work, p),
      detected: [],
      rssByHour: [],
      heapByHour: [],
      v8ByHour: [],
      externalByHour: [],
      dbBytesByHour: [],
      walBytesByHour: [],
      cachedByHour: [],
      staleByHour: [],
      peakTracked: 0,
      maxBehindMs: 0,
      quotaLevels: {},
      lastStatus: null,
    });

  // Watches added with the world still; their first reads (silent baselines) at the same instant.
  svc.simulator.detachClock();
  let settings: Record<string, unknown> = {};
  for (const c of cores) {
    const r = await childCall(
      c.child,
      {
        type: 'init',
        url: svc.url,
        dataDir: c.dataDir,
        now: clock.now(),
        addresses,
        routes,
        apiKey: c.plan === 'free' ? KEY : null,
        retentionDays: RETENTION_DAYS,
      },
      'ready',
    );
    settings = r.settings as Record<string, unknown>;
  }
  const baselineAt = clock.now();
  const intervalMs = Number(settings.pollIntervalSeconds) * 1000;
  svc.simulator.attach(clock);
  moving = true;

  const cycle = async () => {
    await clock.advance(intervalMs);
    const now = clock.now();
    const sample = (now - baselineAt) % HOUR === 0;
    await Promise.all(
      cores.map(async (c) => {
        // At each sample: the settled messages the last prune had to let go of (it runs every PRUNE_EVERY_MS).
        const staleBefore = sample ? now - RETENTION_DAYS * DAY - PRUNE_EVERY_MS : undefined;
        const r = await childCall(c.child, { type: 'tick', now, sample, ...(staleBefore !== undefined ? { staleBefore } : {}) }, 'polled');
        c.detected.push(...(r.transitions as Detection[]));
        const status = r.status as { tracked?: number; behindMs?: number | null; quota?: { level: string } };
        c.peakTracked = Math.max(c.peakTracked, status.tracked ?? 0);
        c.maxBehindMs = Math.max(c.maxBehindMs, status.behindMs ?? 0);
        if (status.quota) c.quotaLevels[status.quota.level] = (c.quotaLevels[status.quota.level] ?? 0) + 1;
        c.lastStatus = status;
        if (sample) {
          c.rssByHour.push(Number(r.rss));
          c.heapByHour.push(Number(r.heapUsed));
          c.v8ByHour.push(Number(r.v8Resident));
          c.externalByHour.push(Number(r.external));
          c.dbBytesByHour.push(Number(r.dbBytes));
          c.walBytesByHour.push(Number(r.walBytes));
          c.cachedByHour.push(Number(r.cachedMessages));
          c.staleByHour.push(Number(r.staleSettled));
        }
      }),
    );
  };
  const cycles = Math.round((HOURS * HOUR) / intervalMs);
  for (let i = 0; i < cycles; i++) {
    await cycle();
    if (process.env.BENCH_DEBUG && (i + 1) % (HOUR / intervalMs) === 0)
      console.error(
        `hour ${(i + 1) / (HOUR / intervalMs)}: wall ${Math.round((Date.now() - wallStart) / 1000)} s, rss ${cores.map((c) => round(c.rssByHour.at(-1)! / MB)).join('/')} MB, heap ${cores.map((c) => round(c.heapByHour.at(-1)! / MB)).join('/')} MB`,
      );
  }
  const dayEnd = clock.now();
  const stalls = svc.simulator.stalls(dayEnd);
  // The world stops (what a stall still holds stays unseen, and out of the truth); the cores catch up.
  svc.simulator.detachClock();
  moving = false;
  for (let i = 0; i < Math.ceil((SETTLE_MINUTES * 60_000) / intervalMs); i++) await cycle();
  truth.stop();

  // Retention: jump a day and a quarter on (each core prunes every 6 hours) and poll, which may end the tracking of
  // old messages (a receipt missing a day); 6 hours on, poll again (a prune runs first), then look at the files.
  await clock.advance(DAY + 6 * HOUR);
  const jumpedTo = clock.now();
  const retention: Record<string, Record<string, unknown>> = {};
  const peakRss: Record<string, number> = {};
  for (const c of cores) {
    await childCall(c.child, { type: 'tick', now: jumpedTo }, 'polled');
    await childCall(c.child, { type: 'tick', now: jumpedTo + 6 * HOUR }, 'polled');
    const closed = await childCall(c.child, { type: 'close' }, 'closed');
    peakRss[c.plan] = Number(closed.peakRss);
    // The last prune ran within 6 hours before the second poll, after the first: nothing untracked seen
    // before a retention before the first poll may remain.
    retention[c.plan] = await childCall(c.child, { type: 'inspect', dataDir: c.dataDir, cutoff: jumpedTo - RETENTION_DAYS * DAY }, 'inspected');
  }

  const expected = truth.expected({
    baselineAt,
    watched: (r) =>
      addresses.some((a) => a.toLowerCase() === String(r.from).toLowerCase() || a.toLowerCase() === String(r.to).toLowerCase()) ||
      routes.some((f) => f.sourceBlockchainId === r.sourceBlockchainId && f.destinationBlockchainId === r.destinationBlockchainId),
    network: 'mainnet',
  });
  const lateExpected = [...expected.values()].filter((e) => e.visibleAt - e.happenedAt >= 30 * 60_000).length;
  const results = cores.map((c) => {
    const stuck = c.detected.filter((d) => d.kind === 'stuck');
    const judged = compare(
      expected,
      c.detected.filter((d) => d.kind !== 'stuck'),
    );
    const { onTime, late } = latencies(judged.hits, intervalMs);
    const quota = c.plan === 'free' ? PLAN_LIMITS.free : PLAN_LIMITS.unauthenticated;
    const caller = c.plan === 'free' ? 'key' : 'anonymous';
    const daySpent = spent.get(`${caller}|${dayOf(dayStart)}`) ?? 0;
    // Samples at hour 1, 2, ...: the first is the level after the first hour.
    const afterFirstHour = c.rssByHour;
    const rssGrowthMb = afterFirstHour.length ? round((Math.max(...afterFirstHour) - Math.min(...afterFirstHour)) / MB) : null;
    const stuckIds = new Set(stuck.map((d) => d.id));
    return {
      plan: c.plan,
      cuSpentToday: daySpent,
      cuPerDay: quota.cuPerDay,
      shareOfQuota: round(daySpent / quota.cuPerDay, 3),
      missed: judged.missed.length,
      duplicates: judged.duplicates + (stuck.length - stuckIds.size),
      unexpected: judged.unexpected.length,
      missedByKind: byKind(judged.missed),
      unexpectedByKind: byKind(judged.unexpected),
      firstMissed: judged.missed.slice(0, 5),
      stuckReports: stuck.length,
      onTimeLatencyMs: { p50: percentile(onTime, 50), p95: percentile(onTime, 95), max: onTime.at(-1) ?? null },
      late: {
        count: late.length,
        maxLagMin: round(late.reduce((m, l) => Math.max(m, l.lag), 0) / 60_000),
        maxAfterVisibleMs: late.reduce((m, l) => Math.max(m, l.afterVisible), 0),
      },
      peakTrackedMessages: c.peakTracked,
      maxBehindMs: c.maxBehindMs,
      quotaLevels: c.quotaLevels,
      rssMbByHour: c.rssByHour.map((b) => round(b / MB)),
      heapUsedMbByHour: c.heapByHour.map((b) => round(b / MB)),
      // The RSS less V8's resident heap: SQLite, the allocator, the runtime.
      outsideV8MbByHour: c.rssByHour.map((b, i) => round((b - c.v8ByHour[i]!) / MB)),
      v8ResidentMbByHour: c.v8ByHour.map((b) => round(b / MB)),
      externalMbByHour: c.externalByHour.map((b) => round(b / MB)),
      rssGrowthAfterFirstHourMb: rssGrowthMb,
      peakRssMb: round(peakRss[c.plan]! / MB),
      dbMbByHour: c.dbBytesByHour.map((b) => round(b / MB, 2)),
      // Of which the write-ahead log (it keeps its largest size).
      walMbByHour: c.walBytesByHour.map((b) => round(b / MB, 2)),
      cachedMessagesByHour: c.cachedByHour,
      // The most settled messages past the retention (and the 6 hours between prunes) any hourly sample found.
      staleSettledMax: Math.max(0, ...c.staleByHour),
      retention: retention[c.plan],
    };
  });

  const result = {
    bench: 'day',
    simulatedHours: HOURS,
    settleMinutes: SETTLE_MINUTES,
    messagesPerSecond: RATE,
    watchedAddresses: addresses.length,
    watchedRoutes: routes.length,
    settings,
    retentionDays: RETENTION_DAYS,
    faults: FAULTS,
    moveWorldPerRequestMs: MOVE_PER_REQUEST_MS,
    stalls: stalls.map((s) => ({ startH: round((s.start - dayStart) / HOUR, 2), minutes: round((s.end - s.start) / 60_000) })),
    messagesSent: svc.simulator.messagesSent,
    transitionsExpected: expected.size,
    transitionsVisibleHalfAnHourLate: lateExpected,
    cores: results,
    loadAverage1m: { start: round(loadAtStart, 2), end: round(loadavg()[0]!, 2) },
    wallSeconds: Math.round((Date.now() - wallStart) / 1000),
  };
  const figures: Record<string, [number | null, number]> = {};
  for (const r of results) {
    const p = r.plan === 'free' ? 'Free' : 'Keyless';
    figures[`cuSpent${p}`] = [r.cuSpentToday, r.cuPerDay];
    figures[`missed${p}`] = [r.missed, 0];
    figures[`duplicates${p}`] = [r.duplicates, 0];
    figures[`unexpected${p}`] = [r.unexpected, 0];
    // Judged from two hourly samples on (a shorter run has no "after the first hour").
    if (HOURS >= 2) figures[`rssGrowthMb${p}`] = [r.rssGrowthAfterFirstHourMb, 10];
    figures[`staleRows${p}`] = [Number(r.retention!.staleMessages) + Number(r.retention!.staleTransitions), 0];
    figures[`staleSettledHourly${p}`] = [r.staleSettledMax, 0];
  }
  report(result, judgeTargets(figures));
  if (process.env.BENCH_DEBUG)
    for (const c of cores) {
      const judged = compare(
        expected,
        c.detected.filter((d) => d.kind !== 'stuck'),
      );
      for (const k of [...judged.missed.slice(0, 6), ...judged.unexpected.slice(0, 4)])
        console.error(
          c.plan,
          judged.missed.includes(k) ? 'MISSED' : 'UNEXPECTED',
          k,
          JSON.stringify(expected.get(k)),
          'reported',
          JSON.stringify(c.detected.filter((d) => d.id === k.split(':')[0])),
          'history',
          JSON.stringify(truth.history(k.split(':')[0]!)?.steps),
          'baseline',
          baselineAt,
        );
    }
  await svc.close();
  removeWorkDir(work);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
