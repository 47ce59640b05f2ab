/**
 * A watch whose first read stops at its page cap says where (issue 42, a stated limit shown): an address
 * with more open history than BASELINE_MAX_PAGES pages is listed with `historyCutAt`, where its baseline
 * stopped; one whose open history ends within the cap (or whose pages stop holding open messages) is not.
 * Against the real local service, through the real poller, with the real store.
 */
import { getAddress } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { BASELINE_MAX_PAGES } from '../../src/shared/policy';
import { engineOnService, type EngineOnService } from './engine-on-service';
import { apiRecord } from './helpers';
import { pollerOn } from './poller-on-service';

let on: EngineOnService | null = null;
afterEach(async () => {
  await on?.close();
  on = null;
});

describe('a baseline cut at its page cap', () => {
  it('lists the watch with where its history was cut; the others with none', async () => {
    on = await engineOnService({ preload: 0, seed: 7 });
    const { svc, rig } = on;
    const busy = getAddress(`0x${'b1'.repeat(20)}`);
    const short = getAddress(`0x${'b2'.repeat(20)}`);
    const settled = getAddress(`0x${'b3'.repeat(20)}`);
    const t0 = Math.floor(rig.clock.now() / 1000);
    const deep = BASELINE_MAX_PAGES * 100 + 500;
    // Open history deeper than the cap within the baseline's 30 min: five pending messages a second, newest 20 s ago.
    const ts = (k: number) => t0 - 20 - Math.floor(k / 5);
    svc.store.upsertMany(Array.from({ length: deep }, (_, k) => apiRecord({ from: busy, status: 'pending', ts: ts(k) })));
    // Open history within the cap.
    svc.store.upsertMany(Array.from({ length: 300 }, (_, k) => apiRecord({ from: short, status: 'pending', ts: ts(k) })));
    // Deep but settled below its first page: the baseline stops where pages hold nothing open.
    svc.store.upsertMany(
      Array.from({ length: deep }, (_, k) => apiRecord({ from: settled, status: k < 50 ? 'pending' : 'delivered', receiptDelivered: k >= 50, ts: ts(k) })),
    );
    for (const a of [busy, short, settled]) rig.watch(a, { baselineDone: false });
    const { poller } = pollerOn(on, 30);
    for (let i = 0; i < 10 && rig.store.watches.listWatches().some((w) => w.baselinePending); i++) {
      await rig.clock.advance(30_000);
      await poller.pollNow();
    }
    const listed = new Map(rig.store.watches.listWatches().map((w) => [w.address, w]));
    expect([...listed.values()].map((w) => w.baselinePending)).toEqual([false, false, false]);
    // The cap's last page ends at the (cap × 100)-th newest message: the cut is one second above it.
    const lastReadTs = ts(BASELINE_MAX_PAGES * 100 - 1);
    expect(listed.get(busy)?.historyCutAt).toBe((lastReadTs + 1) * 1000);
    expect(listed.get(short)?.historyCutAt).toBeNull();
    expect(listed.get(settled)?.historyCutAt).toBeNull();
  });
});
