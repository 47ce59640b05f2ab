/**
 * A late record older than the watch is followed (issue 27, item 4): a record that first appears after
 * its source time and after the watch began (pending, 10 minutes late, below what the watch's baseline
 * read) is tracked, and its delivery and its receipt fire. Before, it was cached as pending and its
 * later changes were never logged. Against the real local service, through the real poller, with one
 * watch (its own list) and with three (the unfiltered list).
 */
import { getAddress } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { engineOnService, type EngineOnService } from './engine-on-service';
import { apiRecord } from './helpers';
import { pollerOn } from './poller-on-service';

let on: EngineOnService | null = null;
afterEach(async () => {
  await on?.close();
  on = null;
});

const INTERVAL_S = 30;
const LATE_S = 10 * 60;

describe('a late record older than the watch', () => {
  it.each([
    { watches: 1, mode: 'per-address' },
    { watches: 3, mode: 'firehose' },
  ])('appearing 10 min late below the baseline, is tracked and its delivery and receipt fire ($mode)', async ({ watches }) => {
    on = await engineOnService({ preload: 50, seed: 41 });
    const { svc, rig } = on;
    // W is nobody the simulator sends for: its list is only what the test writes.
    const w = getAddress(`0x${'5e'.repeat(20)}`);
    const addresses = [w, ...svc.simulator.addresses.slice(0, watches - 1)];
    const t0 = Math.floor(rig.clock.now() / 1000);
    // A busy, settled history: its newest page holds nothing open, so the baseline reads that page only.
    svc.store.upsertMany(Array.from({ length: 150 }, (_, k) => apiRecord({ from: w, status: 'delivered', receiptDelivered: true, ts: t0 - 20 - k })));
    for (const a of addresses) rig.watch(a, { baselineDone: false });
    const { poller, kinds } = pollerOn(on, INTERVAL_S);
    const cycle = async () => {
      await rig.clock.advance(INTERVAL_S * 1000);
      await poller.pollNow();
    };
    await poller.pollNow();
    const floor = rig.store.watches.watcherInfos().addresses.find((a) => a.key === w)!.baselineFloor;
    expect(floor).not.toBeNull();
    for (let i = 0; i < 10; i++) await cycle();

    // Sent 5 min before the watch began, listed only now: 10 min late, below the baseline's floor.
    const late = apiRecord({ from: w, status: 'pending', ts: Math.floor(rig.clock.now() / 1000) - LATE_S });
    const id = late.messageId as string;
    expect(late.sourceTransaction).toMatchObject({ timestamp: expect.any(Number) });
    expect((late.sourceTransaction as { timestamp: number }).timestamp).toBeLessThan(floor!);
    svc.store.upsert(late);
    for (let i = 0; i < 2 && !rig.store.messages.state(id); i++) await cycle();
    expect(rig.store.messages.state(id)).toMatchObject({ status: 'pending', tracked: true });

    const delivered = { ...late, status: 'delivered', messageExecuted: true, destinationTransaction: { txHash: '0x01', timestamp: t0 + 400 } };
    svc.store.upsert(delivered);
    for (let i = 0; i < 20 && !kinds(id).includes('left_pending'); i++) await cycle();
    expect(kinds(id)).toEqual(['left_pending']);
    svc.store.upsert({ ...delivered, receiptDelivered: true });
    for (let i = 0; i < 40 && !kinds(id).includes('receipt_delivered'); i++) await cycle();
    expect(kinds(id)).toEqual(['left_pending', 'receipt_delivered']);
    expect(rig.store.transitions.list({ messageId: id }).map((t) => t.kind)).toEqual(expect.arrayContaining(['left_pending', 'receipt_delivered']));
  });
});
