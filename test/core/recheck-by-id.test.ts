/** Re-checking tracked messages by ID against the real service: each change fires once, unknown IDs are skipped, the cycle budget is kept. */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { RequestBudget } from '../../src/core/data-api/budget';
import { DataApiClient } from '../../src/core/data-api/client';
import { PoolRegistry } from '../../src/core/data-api/pools';
import { createLogger } from '../../src/core/log/logger';
import { recheckById } from '../../src/core/poller/recheck-by-id';
import { CycleBudget } from '../../src/core/poller/scan';
import { startTeleporterService, type RunningService } from '../../src/local-data-api';
import { engineRig, tempDir, type EngineRig } from './helpers';

const pools = new PoolRegistry();
let svc: RunningService | null = null;
let rig: EngineRig | null = null;
let tmp: ReturnType<typeof tempDir> | null = null;
afterEach(async () => {
  rig?.close();
  tmp?.cleanup();
  await svc?.close();
  await pools.close();
  svc = rig = tmp = null;
});

describe('recheckById', () => {
  it('sees a delivery and a receipt through the single-message operation, each exactly once', async () => {
    const clock = new ManualClock();
    svc = await startTeleporterService({ clock, rate: 0, preload: 10, rateLimitPerMinute: { keyed: 1e6, anonymous: 1e6 } });
    tmp = tempDir();
    rig = engineRig(tmp.dir, clock);
    const sender = svc.simulator.addresses[0]!;
    rig.watch(sender);
    const id = svc.simulator.send({ network: 'mainnet', from: sender, outcome: 'normal', deliveryDelayMs: 5_000, receiptDelayMs: 20_000 });
    const client = new DataApiClient({ baseUrl: svc.url, network: 'mainnet', pool: pools.get(svc.url), budget: new RequestBudget(clock, 1e5), clock, logger: createLogger(), apiKey: () => null, apiKeyHeader: 'x-glacier-api-key', family: 'icm' });
    const fired: string[] = [];
    const o = { network: 'mainnet' as const, engine: rig.engine, cycle: new CycleBudget(100), onTransitions: (t: { kind: string }[]) => fired.push(...t.map((x) => x.kind)) };
    const unknown = '00'.repeat(32);
    expect(await recheckById(client, [id, unknown], o)).toBeNull();
    expect(fired).toEqual(['new']);
    await clock.advance(6_000);
    await recheckById(client, [id], o);
    await recheckById(client, [id], o);
    expect(fired).toEqual(['new', 'left_pending']);
    await clock.advance(25_000);
    await recheckById(client, [id, id], o);
    expect(fired).toEqual(['new', 'left_pending', 'receipt_delivered']);
    // The cycle budget bounds it: with nothing left, nothing is asked.
    const before = svc.requestCount();
    expect(await recheckById(client, [id], { ...o, cycle: new CycleBudget(0) })).toBeNull();
    expect(svc.requestCount()).toBe(before);
  });
});
