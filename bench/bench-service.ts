/** The local service as the core and headless benchmarks run it: a fixed seed, history, and either no rate limit a benchmark could meet or a public plan's. */
import { startTeleporterService, type RunningService, type ServiceOptions } from '../src/local-data-api';
import type { PublicPlan } from '../src/local-data-api/compute-units';
import type { Clock } from '../src/shared/clock';

export interface BenchWorld {
  rate: number;
  addresses: number;
  /** Messages of history written before the bench starts (default 20,000). */
  preload?: number;
  /** The simulator's realistic profile (indexing lag, loose list order, sparse routes, ...). */
  realistic?: boolean;
  /**
   * Every caller, with or without a key, on this public plan's CU limits, each key its own quota (the
   * fair pollers' keys: FAIR_POLLER_KEYS). Absent: limits no benchmark meets.
   */
  plan?: PublicPlan;
}

/** One API key per fair poller: each has its own quota at the same plan, apart from the core's (no key). */
export const FAIR_POLLER_KEYS = { list: 'bench-fair-list-poller', perAddress: 'bench-fair-address-poller' } as const;

export function startBenchService(clock: Clock, o: BenchWorld): Promise<RunningService> {
  const options: ServiceOptions & { realistic?: boolean } = {
    clock,
    seed: 42,
    rate: o.rate,
    addressCount: o.addresses,
    preload: o.preload ?? 20_000,
  };
  if (o.plan) {
    options.computeUnits = { keyed: o.plan, anonymous: o.plan };
    options.apiKeys = Object.values(FAIR_POLLER_KEYS);
  }
  // The pollers compared share one service: without a plan its limit must not throttle any of them.
  else options.rateLimitPerMinute = { keyed: 1_000_000, anonymous: 1_000_000 };
  if (o.realistic) options.realistic = true;
  return startTeleporterService(options);
}
