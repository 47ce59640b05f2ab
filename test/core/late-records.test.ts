/**
 * Late records against the real local service and the real poller: a record whose source timestamp is
 * already below the poller's cursor when it first appears (an indexer's lag) is found, once: through
 * the overlap read below the cursor, or later through the trailing sweep; a record that appears
 * between two pages of one cycle is found once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { messageTimestamp } from '../../src/shared/messages';
import type { DataApiClient } from '../../src/core/data-api/client';
import { MAX_LATENESS_S, MAX_OVERLAP_S, TRAIL_PERIOD_MS } from '../../src/shared/policy';
import { engineOnService, type EngineOnService } from './engine-on-service';
import { around, pollerOn } from './poller-on-service';
import { apiRecord } from './helpers';

let on: EngineOnService | null = null;
afterEach(async () => {
  await on?.close();
  on = null;
});

const INTERVAL_S = 10;

/** The newest source timestamp the service lists now (what a head scan's cursor becomes). */
async function newestTs(client: DataApiClient): Promise<number> {
  const r = await client.listMessages({ pageSize: 1 });
  if (!r.ok || !r.value.messages[0]) throw new Error('the list is empty');
  return messageTimestamp(r.value.messages[0])!;
}

/** `n` records nobody watches, stamped within the `spanSec` seconds up to `topTs` (a busy network). */
const background = (n: number, topTs: number, spanSec: number) =>
  Array.from({ length: n }, (_, k) => apiRecord({ status: 'pending', ts: topTs - Math.floor((k * spanSec) / n) }));

describe('late records', () => {
  it('a record stamped below the cursor when it appears is found by the next cycle, once (the overlap below the cursor)', async () => {
    on = await engineOnService({ preload: 300, seed: 3 });
    const { svc, rig, client } = on;
    const watched = svc.simulator.addresses.slice(0, 12);
    for (const a of watched) rig.watch(a);
    const calls: string[] = [];
    const { poller, kinds } = pollerOn(
      on,
      INTERVAL_S,
      around(client, (m) => calls.push(m)),
    );
    // A busy top of the list: 250 records within the last 5 s, nobody's.
    const top = Math.floor(rig.clock.now() / 1000);
    svc.store.upsertMany(background(250, top, 5));
    await poller.pollNow();
    expect(await newestTs(client)).toBe(top);

    // Stamped 12 s below the cursor, visible only now: 250 newer records put it on the third page.
    const late = apiRecord({ from: watched[0]!, status: 'delivered', ts: top - 12 });
    await rig.clock.advance(INTERVAL_S * 1000);
    svc.store.upsert(late);
    calls.length = 0;
    await poller.pollNow();
    expect(kinds(late.messageId as string)).toEqual(['new', 'left_pending']);
    expect(calls).not.toContain('listAddressMessages'); // through the firehose, not the address's own list
    expect(poller.status().lateRecords).toBeUndefined(); // within what the overlap guarantees: nothing to say
    // Read again by later cycles (the overlap, the sweep): nothing twice.
    for (let i = 0; i < 3; i++) {
      await rig.clock.advance(INTERVAL_S * 1000);
      await poller.pollNow();
    }
    expect(kinds(late.messageId as string)).toEqual(['new', 'left_pending']);
    expect(rig.store.transitions.list({ messageId: late.messageId as string }).map((t) => t.kind)).toEqual(expect.arrayContaining(['new', 'left_pending']));
  });

  it('a record 20 min late (beyond the overlap) is found by the trailing sweep within one sweep period of appearing, once', async () => {
    on = await engineOnService({ preload: 300, seed: 4 });
    const { svc, rig } = on;
    const watched = svc.simulator.addresses.slice(0, 12);
    for (const a of watched) rig.watch(a);
    const { poller, kinds } = pollerOn(on, INTERVAL_S);
    const top = Math.floor(rig.clock.now() / 1000);
    svc.store.upsertMany(background(400, top, 30 * 60));
    await poller.pollNow(); // the first sweep runs from the start
    expect(poller.status().lateRecords).toBeUndefined();
    for (let i = 0; i < 6; i++) {
      await rig.clock.advance(INTERVAL_S * 1000);
      await poller.pollNow();
    }
    const late = apiRecord({ from: watched[1]!, status: 'pending', ts: top - 20 * 60 });
    expect(20 * 60).toBeGreaterThan(MAX_OVERLAP_S);
    svc.store.upsert(late);
    const appeared = rig.clock.now();
    let foundAt: number | null = null;
    while (rig.clock.now() - appeared <= TRAIL_PERIOD_MS + 2 * INTERVAL_S * 1000) {
      await rig.clock.advance(INTERVAL_S * 1000);
      await poller.pollNow();
      if (foundAt === null && kinds(late.messageId as string).length) foundAt = rig.clock.now();
    }
    expect(foundAt).not.toBeNull();
    expect(foundAt! - appeared).toBeLessThanOrEqual(TRAIL_PERIOD_MS + INTERVAL_S * 1000);
    expect(kinds(late.messageId as string)).toEqual(['new']);
    // Later than the overlap guarantees: the poll status says how late, and past what nothing is followed.
    expect(poller.status().lateRecords).toEqual({ maxLateSec: expect.any(Number), limitSec: MAX_LATENESS_S });
    expect(poller.status().lateRecords!.maxLateSec).toBeGreaterThanOrEqual(20 * 60);
  });

  it('records that appear between two pages of one cycle (a late one below the cursor, a new one above the part already read) are each found once', async () => {
    on = await engineOnService({ preload: 300, seed: 6 });
    const { svc, rig, client } = on;
    const watched = svc.simulator.addresses.slice(0, 12);
    for (const a of watched) rig.watch(a);
    const top = Math.floor(rig.clock.now() / 1000);
    svc.store.upsertMany(background(250, top, 5));
    let inject: (() => void) | null = null;
    // The real client, but between the first and the second page of a firehose read the world moves.
    const between = around(client, (method, q) => {
      if (method !== 'listMessages' || !q?.pageToken || !inject) return;
      const f = inject;
      inject = null;
      f();
    });
    const { poller, kinds } = pollerOn(on, INTERVAL_S, between);
    await poller.pollNow();
    await rig.clock.advance(INTERVAL_S * 1000);
    svc.store.upsertMany(background(150, top + INTERVAL_S, INTERVAL_S));
    // Late (stamped below the last cursor, 400 newer records above it), and new at the very top.
    const inRead = apiRecord({ from: watched[2]!, status: 'pending', ts: top - 12 });
    const atTop = apiRecord({ to: watched[3]!, status: 'delivered', ts: top + INTERVAL_S });
    inject = () => svc.store.upsertMany([inRead, atTop]);
    await poller.pollNow();
    expect(inject).toBeNull(); // it happened, between two pages
    for (let i = 0; i < 3; i++) {
      await rig.clock.advance(INTERVAL_S * 1000);
      await poller.pollNow();
    }
    expect(kinds(inRead.messageId as string)).toEqual(['new']);
    expect(kinds(atTop.messageId as string)).toEqual(['new', 'left_pending']);
  });

  it('a watch added later is no late record: its history below the cursor, stored silently, measures no lateness', async () => {
    on = await engineOnService({ preload: 300, seed: 7 });
    const { svc, rig } = on;
    const watched = svc.simulator.addresses.slice(0, 12);
    for (const a of watched) rig.watch(a);
    const { poller } = pollerOn(on, INTERVAL_S);
    const top = Math.floor(rig.clock.now() / 1000);
    svc.store.upsertMany(background(400, top, 30 * 60));
    for (let i = 0; i < 4; i++) {
      await rig.clock.advance(INTERVAL_S * 1000);
      await poller.pollNow();
    }
    // A new watch whose messages of the last 12 minutes lie below the cursor, visible all along.
    const newcomer = svc.simulator.addresses[15]!;
    svc.store.upsertMany(Array.from({ length: 5 }, (_, k) => apiRecord({ from: newcomer, status: 'delivered', ts: top - 60 - k * 120 })));
    for (let i = 0; i < 2; i++) {
      await rig.clock.advance(INTERVAL_S * 1000);
      await poller.pollNow();
    }
    rig.watch(newcomer, { baselineDone: false });
    for (let i = 0; i < 4; i++) {
      await rig.clock.advance(INTERVAL_S * 1000);
      await poller.pollNow();
    }
    expect(rig.store.watches.watcherInfos().addresses.find((a) => a.key === newcomer)).toMatchObject({ baselineDone: true });
    expect(poller.status().lateRecords).toBeUndefined();
  });
});
