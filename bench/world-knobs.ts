/** The knobs the core and headless benchmarks share (environment variables, with the defaults of a full run). */
import type { PublicPlan } from '../src/local-data-api/compute-units';
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

const PLANS: readonly PublicPlan[] = ['unauthenticated', 'free', 'base', 'growth', 'pro'];

/**
 * The core bench's knobs, defaulting to the app's own settings: 30 s interval, the default plan (no key),
 * the 30 min stuck threshold, the service's limits on (BENCH_SERVICE_PLAN: a public plan for every caller,
 * or "lifted"); BENCH_BUDGET gives the core a request rate as custom plan figures instead.
 */
export function coreKnobs(defaults: Partial<CellKnobs> = {}): CellKnobs {
  const budget = process.env.BENCH_BUDGET ? envNumber('BENCH_BUDGET', 0) : (defaults.budget ?? null);
  const servicePlan = process.env.BENCH_SERVICE_PLAN ?? defaults.servicePlan ?? 'unauthenticated';
  if (servicePlan !== 'lifted' && !PLANS.includes(servicePlan as PublicPlan))
    throw new Error(`BENCH_SERVICE_PLAN must be one of ${PLANS.join(', ')} or lifted, not "${servicePlan}".`);
  return {
    intervalS: envNumber('BENCH_INTERVAL_S', defaults.intervalS ?? 30),
    minutes: envNumber('BENCH_MINUTES', defaults.minutes ?? 10),
    settleMinutes: envNumber('BENCH_SETTLE_MINUTES', defaults.settleMinutes ?? 5),
    addresses: envNumber('BENCH_ADDRESSES', defaults.addresses ?? 1000),
    rate: envNumber('BENCH_RATE', defaults.rate ?? 2),
    preload: envNumber('BENCH_PRELOAD', defaults.preload ?? 20_000),
    budget,
    servicePlan: servicePlan === 'lifted' ? null : (servicePlan as PublicPlan),
    stuckMinutes: envNumber('BENCH_STUCK_MINUTES', defaults.stuckMinutes ?? 30),
    depthMin: envNumber('BENCH_FAIR_DEPTH_MIN', defaults.depthMin ?? 15),
    fairPollers: (process.env.BENCH_FAIR_POLLERS ?? process.env.BENCH_BASELINES) !== '0',
    realistic: (process.env.BENCH_PROFILE ?? 'realistic') === 'realistic',
    drop: envNumber('BENCH_INJECT_MISSES', 0),
  };
}
