/**
 * A baseline whose last page ends inside one second (issue 27 item 2, the grid's 20 msg/s cells): the
 * list orders records by second only, so records of the baseline's oldest second can run on over the
 * next page, which the baseline did not read. Met later by discovery's read below its cursor, those
 * records (settled long before the watch) are history, not news. Before the fix the baseline's floor
 * was that second itself and each of them fired `new`, `left_pending` and `receipt_delivered`. Against
 * the real local service, through the real poller, with one watch (its own list) and with three (the
 * unfiltered list).
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

describe('a baseline ending inside one second', () => {
  it.each([{ watches: 1 }, { watches: 3 }])('leaves the rest of that second history, and news still fires ($watches watches)', async ({ watches }) => {
    on = await engineOnService({ preload: 50, seed: 43 });
    const { svc, rig } = on;
    // W is nobody the simulator sends for: its list is only what the test writes.
    const w = getAddress(`0x${'5d'.repeat(20)}`);
    const addresses = [w, ...svc.simulator.addresses.slice(0, watches - 1)];
    const t0 = Math.floor(rig.clock.now() / 1000);
    // 250 settled records of one second, 5 min before the watch: more than two pages (100 each) of it.
    const second = t0 - 300;
    const settled = Array.from({ length: 250 }, () => apiRecord({ from: w, to: w, status: 'delivered', receiptDelivered: true, ts: second }));
    svc.store.upsertMany(settled);
    for (const a of addresses) rig.watch(a, { baselineDone: false });
    const { poller, transitions } = pollerOn(on, INTERVAL_S);
    const cycle = async () => {
      await rig.clock.advance(INTERVAL_S * 1000);
      await poller.pollNow();
    };
    await poller.pollNow();
    for (let i = 0; i < 10 && rig.store.watches.watcherInfos().addresses.some((a) => !a.baselineDone); i++) await cycle();
    expect(rig.store.watches.watcherInfos().addresses.find((a) => a.key === w)?.baselineDone).toBe(true);
    // The baseline read a part of that second only (it stops at a page with nothing open).
    const read = settled.filter((r) => rig.store.messages.state(r.messageId as string)).length;
    expect(read).toBeLessThan(settled.length);

    // News after the watch began: it must fire.
    const news = apiRecord({ from: w, status: 'pending', ts: Math.floor(rig.clock.now() / 1000) });
    svc.store.upsert(news);
    for (let i = 0; i < 10; i++) await cycle();

    // Discovery's reads below its cursor met the rest of that second: history, stored silently.
    expect(settled.filter((r) => rig.store.messages.state(r.messageId as string)).length).toBe(settled.length);
    const mine = new Set(settled.map((r) => r.messageId as string));
    expect(transitions.filter((t) => mine.has(t.messageId)).map((t) => `${t.messageId.slice(0, 8)}:${t.kind}`)).toEqual([]);
    expect(transitions.filter((t) => t.messageId === news.messageId).map((t) => t.kind)).toEqual(['new']);
  });
});
