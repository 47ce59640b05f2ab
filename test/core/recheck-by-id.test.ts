/** Re-checking tracked messages by ID against the real service: each change fires once, unknown IDs are skipped, the cycle budget is kept. */
import { afterEach, describe, expect, it } from 'vitest';
import { recheckById } from '../../src/core/poller/recheck-by-id';
import { CycleBudget } from '../../src/core/poller/scan';
import { engineOnService, type EngineOnService } from './engine-on-service';

let setup: EngineOnService | null = null;
afterEach(async () => {
  await setup?.close();
  setup = null;
});

describe('recheckById', () => {
  it('sees a delivery and a receipt through the single-message operation, each exactly once', async () => {
    setup = await engineOnService({ preload: 10 });
    const { svc, rig, client } = setup;
    const clock = rig.clock;
    const sender = svc.simulator.addresses[0]!;
    rig.watch(sender);
    const id = svc.simulator.send({ network: 'mainnet', from: sender, outcome: 'normal', deliveryDelayMs: 5_000, receiptDelayMs: 20_000 });
    const fired: string[] = [];
    const o = {
      network: 'mainnet' as const,
      engine: rig.engine,
      cycle: new CycleBudget(100),
      onTransitions: (t: { kind: string }[]) => fired.push(...t.map((x) => x.kind)),
    };
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
