/**
 * Quick detection must not rest on traffic back: on a quiet one-way route (no message back, so no
 * carrier tells of the delivery) a delivery is logged within the bound docs/poller.md states:
 * within one poll interval while the message is younger than 2 min, within a quarter of its age (at
 * least 3 intervals) after that. The real poller, firehose mode, the real local service.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CHAIN_REGISTRY } from '../../src/shared/chains';
import { engineOnService, type EngineOnService } from './engine-on-service';
import { apiRecord } from './helpers';
import { around, pollerOn } from './poller-on-service';

let on: EngineOnService | null = null;
afterEach(async () => {
  await on?.close();
  on = null;
});

const INTERVAL_S = 10;
const chain = (name: string) => CHAIN_REGISTRY.chains.find((c) => c.network === 'mainnet' && c.name === name)!.blockchainId;

describe('a quiet one-way route', () => {
  it('logs left_pending within one interval of a delivery at 150 s, and within a quarter of its age (2 min) of one at 8 min', { timeout: 90_000 }, async () => {
    on = await engineOnService({ preload: 200, seed: 12 });
    const { svc, rig, client } = on;
    const watched = svc.simulator.addresses.slice(0, 12);
    for (const a of watched) rig.watch(a);
    const calls: string[] = [];
    const { poller, transitions } = pollerOn(
      on,
      INTERVAL_S,
      around(client, (m) => calls.push(m)),
    );
    await poller.pollNow();
    const sentAt = rig.clock.now();
    // One way, nothing comes back on these routes (nobody sends Dexalot → C-Chain or DFK Chain → C-Chain here).
    const fromCChain = (destination: string, from: string, deliveryDelayMs: number) =>
      svc.simulator.send({ source: chain('C-Chain'), destination: chain(destination), from, outcome: 'normal', deliveryDelayMs });
    const soon = fromCChain('Dexalot', watched[0]!, 150_000);
    const late = fromCChain('DFK Chain', watched[1]!, 480_000);
    const loggedAt = (id: string) => transitions.find((t) => t.messageId === id && t.kind === 'left_pending')?.at ?? null;
    while (rig.clock.now() - sentAt < 600_000) {
      await rig.clock.advance(INTERVAL_S * 1000);
      // Busy elsewhere (4 msg/s nobody watches, on other routes): the two sink below the head of the list at once.
      const top = Math.floor(rig.clock.now() / 1000);
      svc.store.upsertMany(Array.from({ length: 40 }, (_, k) => apiRecord({ status: 'delivered', ts: top - Math.floor(k / 4) })));
      await poller.pollNow();
    }
    expect(calls).toContain('listMessages'); // the firehose is read (carriers would be seen)
    const deliveredAt = (id: string) => sentAt + (id === soon ? 150_000 : 480_000);
    expect(loggedAt(soon)).not.toBeNull();
    expect(loggedAt(soon)! - deliveredAt(soon)).toBeLessThanOrEqual(INTERVAL_S * 1000);
    expect(loggedAt(late)).not.toBeNull();
    expect(loggedAt(late)! - deliveredAt(late)).toBeLessThanOrEqual(480_000 / 4 + INTERVAL_S * 1000);
    expect(transitions.filter((t) => t.kind === 'left_pending' && (t.messageId === soon || t.messageId === late))).toHaveLength(2);
  });
});
