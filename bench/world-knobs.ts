/** The knobs the core and headless benchmarks share (environment variables, with the defaults of a full run). */
import type { PlanName } from '../src/shared/plans';
import type { CellKnobs } from './core-cell';
import { envNumber } from './targets';

export function worldKnobs(defaultAddresses: number) {
  return {
    intervalS: envNumber('BENCH_INTERVAL_S', 10),
    minutes: envNumber('BENCH_MINUTES', 10),
    settleMinutes: envNumber('BENCH_SETTLE_MINUTES', 5),
    addresses: envNumber('BENCH_ADDRESSES', defaultAddresses),
    rate: envNumber('BENCH_RATE', 20),
    preload: envNumber('BENCH_PRELOAD', 20_000),
    budget: envNumber('BENCH_BUDGET', 3000),
    /** Test hook: drop this many of the reports before judging them (a bench must then fail). */
    drop: envNumber('BENCH_INJECT_MISSES', 0),
    realistic: (process.env.BENCH_PROFILE ?? 'realistic') === 'realistic',
  };
}

export interface RunKnobs {
  /** Poll interval, seconds. */
  intervalS: number;
  /** Simulated minutes of traffic, then of settling with no new traffic. */
  minutes: number;
  settleMinutes: number;
  /** Watched addresses (and the size of the simulated world). */
  addresses: number;
  /** New messages a simulated second. */
  rate: number;
  /** Messages in the store before the run. */
  preload: number;
  stuckMinutes: number;
  /** How far back the fair pollers read each interval (covers delivery, receipts and indexing lag). */
  depthMin: number;
  /** The clock's start, hours after 00:00 UTC of the run's day: at 0 (the default) no unspent part of the day is there to borrow. */
  startHourUtc: number;
  /** The local service's realistic profile (indexing lag, sparse routes, two messenger versions). */
  realistic: boolean;
}

/** The first fields of a run's JSON line: which bench, on what world, for how long. */
export function runHeader(bench: string, k: RunKnobs, simulatedMinutes: number, watchedAddresses: number) {
  return {
    bench,
    profile: k.realistic ? 'realistic' : 'plain',
    simulatedMinutes: Math.round(simulatedMinutes * 10) / 10,
    settleMinutes: k.settleMinutes,
    watchedAddresses,
  };
}

/** The run knobs as both benches read them: environment variables over `defaults` (the fair pollers' depth from `depthEnv`). */
export function runKnobs(defaults: Partial<RunKnobs>, depthEnv = 'BENCH_FAIR_DEPTH_MIN'): RunKnobs {
  return {
    intervalS: envNumber('BENCH_INTERVAL_S', defaults.intervalS ?? 30),
    minutes: envNumber('BENCH_MINUTES', defaults.minutes ?? 10),
    settleMinutes: envNumber('BENCH_SETTLE_MINUTES', defaults.settleMinutes ?? 5),
    addresses: envNumber('BENCH_ADDRESSES', defaults.addresses ?? 1000),
    rate: envNumber('BENCH_RATE', defaults.rate ?? 2),
    preload: envNumber('BENCH_PRELOAD', defaults.preload ?? 20_000),
    stuckMinutes: envNumber('BENCH_STUCK_MINUTES', defaults.stuckMinutes ?? 30),
    depthMin: envNumber(depthEnv, defaults.depthMin ?? 15),
    startHourUtc: envNumber('BENCH_START_HOUR', defaults.startHourUtc ?? 0),
    realistic: (process.env.BENCH_PROFILE ?? 'realistic') === 'realistic',
  };
}

const PLANS: readonly PlanName[] = ['unauthenticated', 'free', 'base', 'growth', 'pro'];

/**
 * The core bench's knobs, defaulting to the app's own settings: 30 s interval, the default plan (no key),
 * the 30 min stuck threshold, the service's limits on (BENCH_SERVICE_PLAN: a public plan for every caller,
 * or "lifted"); BENCH_BUDGET gives the core a request rate as custom plan figures instead.
 */
export function coreKnobs(defaults: Partial<CellKnobs> = {}): CellKnobs {
  const budget = process.env.BENCH_BUDGET ? envNumber('BENCH_BUDGET', 0) : (defaults.budget ?? null);
  const servicePlan = process.env.BENCH_SERVICE_PLAN ?? defaults.servicePlan ?? 'unauthenticated';
  if (servicePlan !== 'lifted' && !PLANS.includes(servicePlan as PlanName))
    throw new Error(`BENCH_SERVICE_PLAN must be one of ${PLANS.join(', ')} or lifted, not "${servicePlan}".`);
  return {
    ...runKnobs(defaults),
    budget,
    servicePlan: servicePlan === 'lifted' ? null : (servicePlan as PlanName),
    fairPollers: (process.env.BENCH_FAIR_POLLERS ?? process.env.BENCH_BASELINES) !== '0',
  };
}
