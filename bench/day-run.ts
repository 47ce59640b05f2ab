/**
 * One day of `npm run bench:day` (one rate's shape, bench/day-shapes.ts): the service in its realistic
 * profile with indexer stalls, upstream faults, a world that moves during a cycle and the public plans'
 * CU limits, the calm history before 00:00 UTC, and a core per plan, each in its own Node child (day-child.ts)
 * on a manual clock at the app's defaults. The busy hours, the calm hours, then the world stops and the
 * cores settle; the spend is judged there (before the retention jump polls on another day), then the
 * clock jumps past the retention and each core's file is inspected. Returns what was seen; judging is
 * the caller's (day-judge.ts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { allocatorEnv } from '../bin/allocator-env.cjs';
import { ManualClock } from '../src/shared/clock';
import { DEFAULT_SETTINGS, type FeedFilter } from '../src/shared/contract';
import { PRUNE_EVERY_MS } from '../src/shared/policy';
import { GroundTruth, type Detection } from '../test/support/ground-truth';
import { startBenchService, worldAtClock } from './bench-service';
import { childCall } from './child-call';
import { storedPending } from './stored-pending';
import { sweepBoundMs } from './day-judge';
import { CALM_RATE, type DayShape } from './day-shapes';
import { overspend, type Injected } from './inject';
import { judgeSpend, type SpendVerdict } from './judge';
import { ServiceCount } from './service-count';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const FIRST_READS_AFTER_MS = 5 * 60_000;
export const DAY_KEY = 'bench-day-free-key-0001';
export type PlanName = 'keyless' | 'free';

export interface DayKnobs {
  plans: PlanName[];
  addresses: number;
  /** Messages of history before 00:00 UTC, at the calm rate. */
  preload: number;
  settleMinutes: number;
  retentionDays: number;
  faults: string;
  moveWorldPerRequestMs: number;
  /** The bundled day-child.cjs. */
  childJs: string;
  work: string;
  inject: Injected;
  debug: boolean;
}

export interface CoreSeen {
  plan: PlanName;
  detected: Detection[];
  behind: { at: number; ms: number }[];
  spend: SpendVerdict;
  rssByHour: number[];
  heapByHour: number[];
  v8ByHour: number[];
  externalByHour: number[];
  dbBytesByHour: number[];
  walBytesByHour: number[];
  cachedByHour: number[];
  staleByHour: number[];
  peakTracked: number;
  quotaLevels: Record<string, number>;
  peakRss: number;
  retention: Record<string, unknown>;
}

/** A core while it runs: what it has shown so far, its child and its data folder. */
type LiveCore = Omit<CoreSeen, 'spend' | 'peakRss' | 'retention'> & { child: ChildProcess; dataDir: string };

/** The caller the service counts a plan's core as, and the published plan it is held to. */
export const callerOf = (p: PlanName) => (p === 'free' ? DAY_KEY : 'anonymous');
export const publicPlanOf = (p: PlanName) => (p === 'free' ? ('free' as const) : ('unauthenticated' as const));

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

export async function runDay(shape: DayShape, k: DayKnobs) {
  // The day is the service's UTC day (its daily quota). The first reads are taken 5 minutes in: the budget's
  // pace line spreads the day evenly from 00:00 with nothing ahead of it (src/core/data-api/budget.ts), so
  // at 00:00 itself a core may send one request; by 00:05 the watches' first reads fit at one instant.
  const dayStart = Date.UTC(2026, 0, 2);
  const clock = new ManualClock(dayStart + FIRST_READS_AFTER_MS);
  const count = new ServiceCount(clock);
  // The world moves during cycles in the day only: not during the first reads (each core's baseline
  // must see the world the truth's baseline time says), nor while the cores settle.
  let moving = false;
  const svc = await startBenchService(clock, {
    // Yesterday was calm: the history at the calm rate; a busy day's rate from 00:00 on.
    rate: CALM_RATE,
    addresses: 200,
    preload: k.preload,
    realistic: true,
    stalls: true,
    faults: k.faults,
    publicLimits: true,
    apiKeys: [DAY_KEY],
    // Between cycles the world catches up with the clock every 5 s at most (far fewer timer hops in a day);
    // each cycle's reads start with it at the clock (worldAtClock), so the truth's "visible" is what a reader saw.
    tickMs: 5_000,
    moveWorld: { perRequestMs: k.moveWorldPerRequestMs, maxAheadMs: (DEFAULT_SETTINGS.pollIntervalSeconds * 1000) / 2, when: () => moving },
    onCharge: count.onCharge,
    onRefused: count.onRefused,
  });
  const truth = GroundTruth.listen(svc);
  // A message pending since the history may become `stuck` without a change the truth would hear of.
  truth.knowStored(storedPending(svc.store));
  const addresses = svc.simulator.addresses.slice(0, k.addresses);
  const routePlan = svc.simulator.routes!;
  const busyRoute = routePlan.busy.mainnet[0]![0];
  const quiet = routePlan.quiet.find((r) => r.source.network === 'mainnet')!;
  const routes: FeedFilter[] = [busyRoute, quiet].map((r) => ({
    sourceBlockchainId: r.source.blockchainId,
    destinationBlockchainId: r.destination.blockchainId,
  }));

  const cores: LiveCore[] = [];
  for (const plan of k.plans)
    cores.push({
      plan,
      child: await startChild(k.childJs),
      dataDir: join(k.work, `${plan}-${shape.rate}`),
      detected: [],
      behind: [],
      rssByHour: [],
      heapByHour: [],
      v8ByHour: [],
      externalByHour: [],
      dbBytesByHour: [],
      walBytesByHour: [],
      cachedByHour: [],
      staleByHour: [],
      peakTracked: 0,
      quotaLevels: {},
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
        apiKey: c.plan === 'free' ? DAY_KEY : null,
        retentionDays: k.retentionDays,
      },
      'ready',
    );
    settings = r.settings as Record<string, unknown>;
  }
  const baselineAt = clock.now();
  const intervalMs = Number(settings.pollIntervalSeconds) * 1000;
  if (shape.rate !== CALM_RATE) svc.simulator.setRate(shape.rate);
  svc.simulator.attach(clock);
  moving = true;

  const wallStart = Date.now();
  const cycle = async (phase: 'day' | 'settle') => {
    await clock.advance(intervalMs);
    // Only while the world moves: in the settle it is stopped (detached), nothing more may happen.
    if (moving) worldAtClock(svc, clock);
    const now = clock.now();
    const sample = phase === 'day' && (now - baselineAt) % HOUR === 0;
    await Promise.all(
      cores.map(async (c) => {
        // At each sample: the settled messages the last prune had to let go of (it runs every PRUNE_EVERY_MS).
        const staleBefore = sample ? now - k.retentionDays * DAY - PRUNE_EVERY_MS : undefined;
        const r = await childCall(c.child, { type: 'tick', now, sample, ...(staleBefore !== undefined ? { staleBefore } : {}) }, 'polled');
        c.detected.push(...(r.transitions as Detection[]));
        const status = r.status as { tracked?: number; behindMs?: number | null; quota?: { level: string } };
        c.peakTracked = Math.max(c.peakTracked, status.tracked ?? 0);
        if (phase === 'day') c.behind.push({ at: now, ms: status.behindMs ?? 0 });
        if (status.quota) c.quotaLevels[status.quota.level] = (c.quotaLevels[status.quota.level] ?? 0) + 1;
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
    if (k.debug && sample)
      console.error(
        `${shape.rate} msg/s, hour ${(now - baselineAt) / HOUR}: wall ${Math.round((Date.now() - wallStart) / 1000)} s, behind ${cores.map((c) => Math.round(c.behind.at(-1)!.ms / 60_000)).join('/')} min, tracked ${cores.map((c) => c.peakTracked).join('/')}`,
      );
  };
  const cyclesOf = (hours: number) => Math.round((hours * HOUR) / intervalMs);
  for (let i = 0; i < cyclesOf(shape.busyHours); i++) await cycle('day');
  const calmAt = clock.now();
  // The traffic calms: the world goes on at the calm rate (deliveries, receipts, stalls, a few new messages).
  if (shape.rate !== CALM_RATE) svc.simulator.setRate(CALM_RATE);
  for (let i = 0; i < cyclesOf(shape.calmHours); i++) await cycle('day');
  const dayEnd = clock.now();
  const stalls = svc.simulator.stalls(dayEnd);
  // The world stops (what a stall still holds stays unseen, and out of the truth); the cores catch up.
  svc.simulator.detachClock();
  moving = false;
  for (let i = 0; i < Math.ceil((k.settleMinutes * 60_000) / intervalMs); i++) await cycle('settle');
  const endAt = clock.now();
  truth.stop();
  // Proof the spend rule bites (never in a measured run): more requests as each core's caller, at the end.
  if (k.inject.overspend) for (const c of cores) await overspend(svc.url, k.inject.overspend, c.plan === 'free' ? DAY_KEY : undefined);
  // From 00:00 UTC to here: the jump below polls on another day.
  const spend = new Map(
    cores.map((c) => [c.plan, judgeSpend(count, callerOf(c.plan), publicPlanOf(c.plan), dayStart, endAt, count.refused(callerOf(c.plan)))]),
  );

  // Retention: jump a day and a quarter on (each core prunes every 6 hours) and poll, which may end the tracking of
  // old messages (a receipt missing a day); 6 hours on, poll again (a prune runs first), then look at the files.
  await clock.advance(DAY + 6 * HOUR);
  const jumpedTo = clock.now();
  const seen: CoreSeen[] = [];
  for (const c of cores) {
    await childCall(c.child, { type: 'tick', now: jumpedTo }, 'polled');
    await childCall(c.child, { type: 'tick', now: jumpedTo + 6 * HOUR }, 'polled');
    const closed = await childCall(c.child, { type: 'close' }, 'closed');
    // The last prune ran within 6 hours before the second poll, after the first: nothing untracked seen
    // before a retention before the first poll may remain.
    const retention = await childCall(c.child, { type: 'inspect', dataDir: c.dataDir, cutoff: jumpedTo - k.retentionDays * DAY }, 'inspected');
    const { child: _child, dataDir: _dir, ...rest } = c;
    seen.push({ ...rest, spend: spend.get(c.plan)!, peakRss: Number(closed.peakRss), retention });
  }

  // `stuck` near a delivery, the baseline or the end is either way: within the slowest re-check cadence of a pending message (5 intervals) and one more.
  // A record a stall held is found within the trailing sweep's bound of reappearing: seen delivered first if its delivery shows by then.
  const stuck = { thresholdMs: Number(settings.stuckThresholdMinutes) * 60_000, endAt, marginMs: 6 * intervalMs, lateSightingMs: sweepBoundMs(intervalMs) };
  const expected = truth.expected({
    baselineAt,
    watched: (r) =>
      addresses.some((a) => a.toLowerCase() === String(r.from).toLowerCase() || a.toLowerCase() === String(r.to).toLowerCase()) ||
      routes.some((f) => f.sourceBlockchainId === r.sourceBlockchainId && f.destinationBlockchainId === r.destinationBlockchainId),
    network: 'mainnet',
    stuck,
  });
  const day = {
    shape,
    settings,
    intervalMs,
    dayStart,
    baselineAt,
    calmAt,
    dayEnd,
    endAt,
    stalls: stalls.map((s) => ({ startH: Math.round(((s.start - dayStart) / HOUR) * 100) / 100, minutes: Math.round((s.end - s.start) / 6_000) / 10 })),
    stallSpans: stalls.map((s) => ({ start: s.start, end: s.end })),
    messagesSent: svc.simulator.messagesSent,
    expected,
    watchedAddresses: addresses.length,
    watchedRoutes: routes.length,
  };
  return { day, cores: seen, truth, close: () => svc.close() };
}
