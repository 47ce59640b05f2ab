/**
 * A list busier than the budget's pace (issue 27 item 6, bench:relayers' lost late records): against the
 * real local service and the real poller, a busy unwatched list (5 messages/s) and a budget of 20
 * requests a cycle, less than the full read below the cursor and the trailing sweep cost (~30 pages a
 * cycle). The poller reads news only from the top and each span once more from its page token later
 * (echoes.ts): records shown 8 and 25 minutes late are read, an old pending message's late delivery is
 * reported (re-checks by ID still run), nothing twice; the cursor moves every cycle and the status's
 * "behind" stays about MAX_LATENESS_S (how long a span waits for its echo), not growing.
 */
import { describe, expect, it } from 'vitest';
import { echoesPay } from '../../src/core/poller/echoes';
import { PAGE_SIZE } from '../../src/core/poller/request-prices';
import { GUARANTEED_LATENESS_S, MAX_LATENESS_S } from '../../src/shared/policy';
import { closedAfterEach } from '../support/closed-after-each';
import { engineOnService } from './engine-on-service';
import { apiRecord } from './helpers';
import { around, pollerOn } from './poller-on-service';

const closing = closedAfterEach();

const INTERVAL_S = 30;
const MIN = 60;
/** Unwatched traffic, messages a second: a cycle's news is 2 pages, the full read below the cursor ~35. */
const RATE = 5;
/** 20 requests a cycle. */
const PER_MINUTE = 40;

describe('late records on a list busier than the budget (echoes)', () => {
  it('reads records 8 and 25 min late and an old pending message delivered late, each once, the cursor moving every cycle', async () => {
    const on = closing(await engineOnService({ preload: 0, seed: 36 }));
    const { svc, rig } = on;
    rig.settings.stuckThresholdMinutes = 6 * 60; // about re-checks and late records, not `stuck`
    const watched = svc.simulator.addresses.slice(0, 20);
    for (const a of watched) rig.watch(a);
    let requests = 0;
    const { poller, kinds, transitions } = pollerOn(
      on,
      INTERVAL_S,
      around(on.client, () => requests++),
      PER_MINUTE,
    );
    const nowS = () => Math.floor(rig.clock.now() / 1000);
    const traffic = (fromTs: number, toTs: number) => {
      const out: Record<string, unknown>[] = [];
      for (let ts = fromTs; ts < toTs; ts++) for (let k = 0; k < RATE; k++) out.push(apiRecord({ status: 'delivered', receiptDelivered: true, ts }));
      return out;
    };
    svc.store.upsertMany(traffic(nowS() - 20 * MIN, nowS()));
    expect((RATE * (GUARANTEED_LATENESS_S + 2 * INTERVAL_S)) / PAGE_SIZE).toBeGreaterThan((PER_MINUTE * INTERVAL_S) / 60); // the full read does not fit
    let shownTo = nowS();
    const headKey = `head:${on.client.baseUrl}:mainnet`;
    const cursorAt = () => rig.store.pollState.get<{ ts: number; at: number }>(headKey)?.at ?? 0;
    const behind: number[] = [];
    const cycle = async () => {
      await rig.clock.advance(INTERVAL_S * 1000);
      svc.store.upsertMany(traffic(shownTo, nowS()));
      shownTo = nowS();
      const before = requests;
      await poller.pollNow();
      expect(requests - before).toBeLessThanOrEqual((PER_MINUTE * INTERVAL_S) / 60); // the budget holds
      behind.push(poller.status().behindMs ?? 0);
    };
    const startS = nowS();
    for (let i = 0; i < 4; i++) await cycle();

    // A watched message sent now, pending: delivered 15 minutes later, below any read from the top.
    const sentTs = nowS() - 1;
    const pending = apiRecord({ from: watched[0]!, status: 'pending', ts: sentTs });
    const pendingId = pending.messageId as string;
    svc.store.upsert(pending);
    for (let i = 0; i < 4 && kinds(pendingId).length === 0; i++) await cycle();
    expect(kinds(pendingId)).toEqual(['new']);
    while (nowS() - sentTs < 15 * MIN) await cycle();
    svc.store.upsert({ ...apiRecord({ id: pendingId, from: watched[0]!, status: 'delivered', ts: sentTs }), to: pending.to });

    // Watched records sent 8 and 25 minutes ago, shown only now (far below the news the read from the top
    // takes), once the first spans read after the start (the half hour below the cursor, at first) are echoed.
    while (nowS() - startS < MAX_LATENESS_S + 5 * MIN) await cycle();
    const late8 = apiRecord({ from: watched[1]!, status: 'pending', ts: nowS() - 8 * MIN });
    const late25 = apiRecord({ from: watched[2]!, status: 'pending', ts: nowS() - 25 * MIN });
    svc.store.upsertMany([late8, late25]);
    const lateIds = [late8.messageId as string, late25.messageId as string];
    const shownAt = nowS();

    const done = () => kinds(pendingId).includes('left_pending') && lateIds.every((id) => kinds(id).length > 0);
    const readAt = new Map<string, number>();
    for (let i = 0; i < 2 * (MAX_LATENESS_S / INTERVAL_S) && !done(); i++) {
      await cycle();
      for (const id of lateIds) if (!readAt.has(id) && kinds(id).length > 0) readAt.set(id, nowS());
      // The cursor moves every cycle (before: it stopped at the first read the budget cut short).
      expect(rig.clock.now() - cursorAt()).toBeLessThanOrEqual(INTERVAL_S * 1000);
    }
    // The old pending message was re-checked (its delivery reported), the late records read, each once,
    // by their span's echo: within MAX_LATENESS_S of their source time, plus a few cycles (the one 8 min
    // late by the early echo GUARANTEED_LATENESS_S on, the cycles having room for it).
    expect(kinds(pendingId)).toEqual(['new', 'left_pending']);
    expect(kinds(lateIds[0]!)).toEqual(['new']);
    expect(kinds(lateIds[1]!)).toEqual(['new']);
    expect(readAt.get(lateIds[0]!)! - (shownAt - 8 * MIN)).toBeLessThanOrEqual(GUARANTEED_LATENESS_S + 4 * INTERVAL_S);
    expect(readAt.get(lateIds[1]!)! - (shownAt - 25 * MIN)).toBeLessThanOrEqual(MAX_LATENESS_S + 4 * INTERVAL_S);
    // "Behind" is how long the oldest span owed an echo went unread: about MAX_LATENESS_S, not growing.
    expect(Math.max(...behind)).toBeLessThanOrEqual((MAX_LATENESS_S + 4 * INTERVAL_S) * 1000);
    expect(behind.at(-1)).toBeGreaterThan(0);
    const keys = transitions.map((t) => `${t.messageId} ${t.kind}`);
    expect(new Set(keys).size).toBe(keys.length);
  }, 180_000);
});

describe('when the poller echoes', () => {
  const full = GUARANTEED_LATENESS_S + 2 * INTERVAL_S;
  const cycle = INTERVAL_S * 1000;
  /** The keyless plan at its day pace, nothing saved: ~20 requests a cycle. */
  const keyless = { left: 20, cap: 143, pace: 19.8, saved: 0 };
  it("never at the grid's low rates on the keyless pace; at 20 messages/s; not on a budget with an hour of those reads saved; and stays so until they cost half the cycle", () => {
    for (const rate of [0.02, 0.2, 2]) expect(echoesPay(rate, cycle, full, keyless, false)).toBe(false);
    expect(echoesPay(20, cycle, full, keyless, false)).toBe(true);
    // The first minute's burst (a cycle may spend 142) with nothing else saved: the day's pace decides.
    expect(echoesPay(20, cycle, full, { left: 142, cap: 143, pace: 19.8, saved: 285 }, false)).toBe(true);
    // Half a day saved (the grid's noon start): the cycle reads as before while it can pay, even right after
    // a first read took the minute's cap.
    expect(echoesPay(20, cycle, full, { left: 142, cap: 143, pace: 19.8, saved: 30_000 }, false)).toBe(false);
    expect(echoesPay(20, cycle, full, { left: 3, cap: 143, pace: 19.8, saved: 30_000 }, false)).toBe(false);
    expect(echoesPay(4, cycle, full, keyless, false)).toBe(true);
    expect(echoesPay(2, cycle, full, keyless, true)).toBe(true); // 2 msg/s costs ~12 > 10: no flapping back
    expect(echoesPay(0.2, cycle, full, keyless, true)).toBe(false);
    // A cycle left short (a sweep, a 429) does not make a quiet list look busy.
    for (const rate of [0.02, 0.2, 2]) expect(echoesPay(rate, cycle, full, { ...keyless, left: 1 }, false)).toBe(false);
    // Unknown rate or no limit: as it was.
    expect(echoesPay(null, cycle, full, keyless, true)).toBe(true);
    expect(echoesPay(20, cycle, full, undefined, false)).toBe(false);
  });
});
