/** A transition engine on a real SQLite file beside the real local service, and a client of it: for tests of the poller's parts. */
import { ManualClock, type Clock } from '../../src/shared/clock';
import { RequestBudget } from '../../src/core/data-api/budget';
import { DataApiClient } from '../../src/core/data-api/client';
import { PoolRegistry } from '../../src/core/data-api/pools';
import { createLogger } from '../../src/core/log/logger';
import { startLocalService, type SimulatedService } from '../../src/local-service';
import { engineRig, tempDir, type EngineRig } from './helpers';

export interface EngineOnService {
  svc: SimulatedService;
  rig: EngineRig;
  client: DataApiClient;
  close(): Promise<void>;
}

/** `preload` simulated messages, no live traffic, a manual clock, no rate limit to speak of. */
export async function engineOnService(o: { preload: number; seed?: number }): Promise<EngineOnService> {
  const clock = new ManualClock();
  const svc = await startLocalService({
    clock,
    rate: 0,
    preload: o.preload,
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    rateLimitPerMinute: { keyed: 1e6, anonymous: 1e6 },
  });
  const tmp = tempDir();
  const rig = engineRig(tmp.dir, clock);
  const pools = new PoolRegistry();
  const client = localServiceClient(svc.url, clock, pools);
  return {
    svc,
    rig,
    client,
    async close() {
      rig.close();
      tmp.cleanup();
      await svc.close();
      await pools.close();
    },
  };
}

/** A Data API client of the local service at `url` as the app makes one (ICM paths, no key), with no budget to speak of. */
export function localServiceClient(url: string, clock: Clock, pools: PoolRegistry): DataApiClient {
  return new DataApiClient({
    baseUrl: url,
    network: 'mainnet',
    pool: pools.get(url),
    budget: new RequestBudget(clock, 1e6),
    clock,
    logger: createLogger(),
    apiKey: () => null,
    apiKeyHeader: 'x-glacier-api-key',
    family: 'icm',
  });
}
