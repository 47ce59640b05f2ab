/** The local service as the core and headless benchmarks run it: a fixed seed, 20,000 messages of history, no rate limit a benchmark could meet. */
import { startTeleporterService, type RunningService } from '../src/local-data-api';
import type { Clock } from '../src/shared/clock';

export function startBenchService(clock: Clock, o: { rate: number; addresses: number }): Promise<RunningService> {
  return startTeleporterService({
    clock,
    seed: 42,
    rate: o.rate,
    addressCount: o.addresses,
    preload: 20_000,
    rateLimitPerMinute: { keyed: 1_000_000, anonymous: 1_000_000 },
  });
}
