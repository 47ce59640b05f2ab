/**
 * The relayer-wallet world the fuel and earnings tests share: the real local service with the dry
 * demo wallet on, and the core's Data API client to it (no retries, a budget wide enough to never bind).
 */
import type { Clock } from '../../../src/shared/clock';
import { RequestBudget } from '../../../src/core/data-api/budget';
import { DataApiClient } from '../../../src/core/data-api/client';
import type { PoolRegistry } from '../../../src/core/data-api/pools';
import { createLogger } from '../../../src/core/log/logger';

/** Service options for a world whose wallets pay for deliveries, one of them running dry. */
export const WALLET_WORLD = {
  preload: 20_000,
  seed: 31,
  rate: 2,
  dryWallet: true,
  rateLimitPerMinute: { keyed: 1_000_000, anonymous: 1_000_000 },
} as const;

export function clientTo(url: string, clock: Clock, pools: PoolRegistry, budget = new RequestBudget(clock, 100_000)): DataApiClient {
  return new DataApiClient({
    baseUrl: url,
    network: 'mainnet',
    pool: pools.get(url),
    budget,
    clock,
    logger: createLogger(),
    apiKey: () => null,
    apiKeyHeader: 'x-glacier-api-key',
    maxRetries: 0,
  });
}
