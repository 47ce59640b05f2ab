/**
 * An indexer stall against the real local service and the real poller (firehose mode, the app's 30 s
 * interval): the service lists nothing new for 70 minutes, then catches up out of order over a few
 * minutes. A watched message sent during the stall, shown about an hour after it was sent (below the
 * cursor's overlap and below the usual 30-minute sweep), is reported once (new, then its delivery and its
 * receipt); nothing is reported twice; the poll status says the indexer stalled and how far back the
 * sweeps read. The detection and the floors themselves are checked on their own below.
 */
import { describe, expect, it } from 'vitest';
import { detectStall, joinStall, STALL_MIN_S, trailFloorTs, trailPagesPerCycle } from '../../src/core/poller/late-records';
import { MAX_LATENESS_S, STALL_CATCH_UP_MS, STALL_MAX_SWEEP_S } from '../../src/shared/policy';
import { closedAfterEach } from '../support/closed-after-each';
import { engineOnService } from './engine-on-service';
import { pollerOn } from './poller-on-service';
import { apiRecord } from './helpers';

const closing = closedAfterEach();

const INTERVAL_S = 30;
const MIN = 60;
/** Background traffic nobody watches: one record every 5 s (0.2 messages/s, as bench:day). */
const EVERY_S = 5;

const background = (fromTs: number, toTs: number) => {
  const out: Record<string, unknown>[] = [];
  for (let ts = fromTs; ts < toTs; ts += EVERY_S) out.push(apiRecord({ status: 'delivered', ts }));
  return out;
};

/**
 * The real core watching 12 addresses on the real service after 20 live cycles at INTERVAL_S. `cycle(live)`
 * moves the clock one interval and polls; when `live`, the indexer first shows what was sent since
 * `shownTo` (the records of the stall are shown by the tests themselves).
 */
async function stallRig(seed: number) {
  const on = closing(await engineOnService({ preload: 300, seed }));
  const { svc, rig } = on;
  rig.settings.stuckThresholdMinutes = 6 * 60; // these tests are about the sweeps, not about `stuck`
  const watched = svc.simulator.addresses.slice(0, 12);
  for (const a of watched) rig.watch(a);
  const { poller, kinds, transitions } = pollerOn(on, INTERVAL_S);
  const nowS = () => Math.floor(rig.clock.now() / 1000);
  svc.store.upsertMany(background(nowS() - 30 * MIN, nowS()));
  const t = {
    svc,
    watched,
    poller,
    kinds,
    transitions,
    nowS,
    shownTo: nowS(),
    cycle: async (live: boolean) => {
      await rig.clock.advance(INTERVAL_S * 1000);
      if (live) {
        svc.store.upsertMany(background(t.shownTo, nowS()));
        t.shownTo = nowS();
      }
      await poller.pollNow();
    },
  };
  for (let i = 0; i < 20; i++) await t.cycle(true);
  return t;
}

describe('indexer stall', () => {
  it('a watched message sent during a 70-minute stall, shown an hour late at the catch-up, is reported once: new, its delivery, its receipt', async () => {
    const st = await stallRig(11);
    const { svc, watched, poller, kinds, transitions, nowS, cycle } = st;
    expect(poller.status().lateRecords).toBeUndefined();

    // The stall: 70 minutes with nothing new listed while the world goes on.
    const stallStart = nowS();
    // Its own nonce: the message that carries its receipt back names it by route, messenger and nonce.
    const nonce = { messageNonce: '4242' };
    const sent = apiRecord({ from: watched[0]!, status: 'pending', ts: stallStart + 5 * MIN, extra: nonce });
    const id = sent.messageId as string;
    for (let i = 0; i < (70 * MIN) / INTERVAL_S; i++) await cycle(false);
    const stallEnd = nowS();

    // The catch-up, out of order: the newest records first (the cursor jumps to now), the held message 3 minutes later.
    const held = background(st.shownTo, stallEnd);
    svc.store.upsertMany(held.filter((r) => (r.sourceTransaction as { timestamp: number }).timestamp >= stallEnd - 10 * MIN));
    await poller.pollNow();
    for (let i = 0; i < 6; i++) await cycle(false);
    svc.store.upsertMany(held.filter((r) => (r.sourceTransaction as { timestamp: number }).timestamp < stallEnd - 10 * MIN));
    svc.store.upsert(sent);
    const shownAt = nowS();
    expect(shownAt - (stallStart + 5 * MIN)).toBeGreaterThan(MAX_LATENESS_S + 30 * MIN); // below the usual sweep by far
    st.shownTo = nowS();

    // Found by a sweep after the stall (reading down to its start), within one catch-up window.
    while (kinds(id).length === 0 && nowS() - shownAt <= STALL_CATCH_UP_MS / 1000) await cycle(true);
    expect(kinds(id)).toEqual(['new']);
    // The status says the indexer stalled, how long, and how far back the sweeps read.
    const stall = poller.status().lateRecords?.stall;
    expect(stall).toMatchObject({ limited: false });
    expect(stall!.stalledSec).toBeGreaterThanOrEqual(70 * MIN);
    expect(stall!.sweptToMs).toBeLessThanOrEqual((stallStart - MAX_LATENESS_S + MIN) * 1000);

    // Its delivery, then its receipt, each once.
    svc.store.upsert({ ...apiRecord({ id, from: watched[0]!, status: 'delivered', ts: stallStart + 5 * MIN, extra: nonce }), to: sent.to });
    for (let i = 0; i < 20 && !kinds(id).includes('left_pending'); i++) await cycle(true);
    // The receipt comes back as in Teleporter: on a message the other way, delivered, naming the original.
    const carrier = apiRecord({
      status: 'delivered',
      ts: nowS(),
      extra: { sourceBlockchainId: sent.destinationBlockchainId, destinationBlockchainId: sent.sourceBlockchainId },
    });
    carrier.receipts = [{ receivedMessageNonce: nonce.messageNonce, relayerRewardAddress: sent.from }];
    svc.store.upsertMany([
      { ...apiRecord({ id, from: watched[0]!, status: 'delivered', ts: stallStart + 5 * MIN, receiptDelivered: true, extra: nonce }), to: sent.to },
      carrier,
    ]);
    for (let i = 0; i < 40 && !kinds(id).includes('receipt_delivered'); i++) await cycle(true);
    for (let i = 0; i < 20; i++) await cycle(true); // the later (deep and usual) sweeps read it again
    expect(kinds(id)).toEqual(['new', 'left_pending', 'receipt_delivered']);

    // Nothing reported twice.
    const keys = transitions.map((t) => `${t.messageId} ${t.kind}`);
    expect(keys.length).toBeGreaterThan(0);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('a catch-up whose top looks stopped twice still sweeps down to the first stall: a message held from its first minutes, shown 6 minutes after the resume, is reported', async () => {
    const st = await stallRig(12);
    const { svc, watched, poller, kinds, nowS, cycle } = st;

    const stallStart = nowS();
    const sent = apiRecord({ from: watched[0]!, status: 'pending', ts: stallStart + 2 * MIN });
    const id = sent.messageId as string;
    for (let i = 0; i < (70 * MIN) / INTERVAL_S; i++) await cycle(false);
    const stallEnd = nowS();

    // The catch-up in two steps, as the simulator's blocks reappear out of order: first the stall's first
    // 40 minutes (the top still 30 minutes old: a second "stall" from there, whose own floor is above the
    // held message), then the rest; the held message 6 minutes later, once the first sweep has ended.
    const held = background(st.shownTo, stallEnd);
    const tsOf = (r: Record<string, unknown>) => (r.sourceTransaction as { timestamp: number }).timestamp;
    svc.store.upsertMany(held.filter((r) => tsOf(r) < stallStart + 40 * MIN));
    await cycle(false);
    svc.store.upsertMany(held.filter((r) => tsOf(r) >= stallStart + 40 * MIN));
    st.shownTo = stallEnd;
    await cycle(false);
    for (let i = 0; i < (6 * MIN) / INTERVAL_S; i++) await cycle(true);
    svc.store.upsert(sent);
    const shownAt = nowS();

    while (kinds(id).length === 0 && nowS() - shownAt <= STALL_CATCH_UP_MS / 1000) await cycle(true);
    expect(kinds(id)).toEqual(['new']);
    const stall = poller.status().lateRecords?.stall;
    // The status keeps the first stall (about 70 minutes, not the second's 30) and its deeper floor.
    expect(stall!.stalledSec).toBeGreaterThan(60 * MIN);
    expect(stall!.sweptToMs).toBeLessThanOrEqual((stallStart - MAX_LATENESS_S + 2 * MIN) * 1000);
  });
});

describe('indexer stall: detection and floors', () => {
  const now = 1_800_000_000_000;
  const nowSec = now / 1000;

  it('the list top stopped advancing for STALL_MIN_S or more, then moved on: a stall from where it stopped; otherwise none', () => {
    const at = now - 30_000;
    const stoppedTs = nowSec - 70 * MIN;
    expect(detectStall(stoppedTs, at, nowSec - 5, now)).toEqual({
      fromTs: stoppedTs,
      stalledSec: 70 * MIN - 30,
      resumedAt: now,
      floorTs: stoppedTs - MAX_LATENESS_S,
      limited: false,
    });
    // Still stalled (nothing newer yet), or a usual lag: no stall.
    expect(detectStall(stoppedTs, at, stoppedTs, now)).toBeNull();
    expect(detectStall(nowSec - 60, at, nowSec - 5, now)).toBeNull();
    expect(detectStall(Math.floor(at / 1000) - STALL_MIN_S + 1, at, nowSec, now)).toBeNull();
  });

  it('a stall seen within the catch-up of another keeps the deeper floor and the longer stall, from the later resume; after it, it stands alone', () => {
    const first = detectStall(nowSec - 70 * MIN, now - 30_000, nowSec - 30 * MIN, now)!;
    const later = now + 60_000;
    const second = detectStall(nowSec - 30 * MIN, now, nowSec, later)!;
    expect(second.floorTs).toBeGreaterThan(first.floorTs);
    expect(joinStall(first, second)).toEqual({ ...second, fromTs: first.fromTs, stalledSec: first.stalledSec, floorTs: first.floorTs });
    expect(joinStall(null, second)).toEqual(second);
    const much = now + STALL_CATCH_UP_MS + 1000;
    const third = detectStall(Math.floor(much / 1000) - 20 * MIN, much - 30_000, Math.floor(much / 1000), much)!;
    expect(joinStall(first, third)).toEqual(third);
  });

  it('a stall longer than the sweeps reach is capped at STALL_MAX_SWEEP_S below now and says so', () => {
    const stoppedTs = nowSec - 6 * 3600;
    expect(detectStall(stoppedTs, now - 30_000, nowSec, now)).toMatchObject({ floorTs: nowSec - STALL_MAX_SWEEP_S, limited: true });
  });

  it('the sweeps read down to the stall only within STALL_CATCH_UP_MS of the resume; otherwise MAX_LATENESS_S, as in quiet times', () => {
    const stall = detectStall(nowSec - 70 * MIN, now - 30_000, nowSec, now)!;
    expect(trailFloorTs(now, null)).toBe(nowSec - MAX_LATENESS_S);
    expect(trailFloorTs(now + 60_000, stall)).toBe(stall.floorTs);
    expect(trailFloorTs(now + STALL_CATCH_UP_MS, stall)).toBe(stall.floorTs);
    expect(trailFloorTs(now + STALL_CATCH_UP_MS + 1000, stall)).toBe(nowSec + STALL_CATCH_UP_MS / 1000 + 1 - MAX_LATENESS_S);
    // A deeper sweep reads more pages a cycle, so it still ends within its period.
    expect(trailPagesPerCycle(2, 30_000, 100, 3 * 3600)).toBeGreaterThan(trailPagesPerCycle(2, 30_000, 100));
  });
});
