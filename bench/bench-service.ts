/** The local service as the core and headless benchmarks run it: a fixed seed, history, no rate limit a benchmark could meet. */
import { startTeleporterService, type RunningService, type ServiceOptions } from '../src/local-data-api';
import type { Clock } from '../src/shared/clock';

export interface BenchWorld {
  rate: number;
  addresses: number;
  /** Messages of history written before the bench starts (default 20,000). */
  preload?: number;
  /** The simulator's realistic profile (indexing lag, loose list order, sparse routes, ...). */
  realistic?: boolean;
}

export function startBenchService(clock: Clock, o: BenchWorld): Promise<RunningService> {
  const options: ServiceOptions & { realistic?: boolean } = {
    clock,
    seed: 42,
    rate: o.rate,
    addressCount: o.addresses,
    preload: o.preload ?? 20_000,
    // The pollers compared share one service: its limit must not throttle any of them.
    rateLimitPerMinute: { keyed: 1_000_000, anonymous: 1_000_000 },
  };
  if (o.realistic) options.realistic = true;
  return startTeleporterService(options);
}
