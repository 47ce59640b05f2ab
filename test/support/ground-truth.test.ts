import { describe, expect, it } from 'vitest';
import { startLocalService, type RecordChange } from '../../src/local-service';
import { ManualClock } from '../../src/shared/clock';
import { compare, GroundTruth, latencies, percentile } from './ground-truth';

const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5'; // mainnet
const DISPATCH = '2D8RG4UpSXbPbvPCAWppNJyqTG2i2CAXSkTgmTBBvs7GKNZjsY'; // fuji
const ALICE = '0xA11ce00000000000000000000000000000000001';
const BOB = '0xb0b0000000000000000000000000000000000002';

const rec = (id: string, status: string, rd = false, o: Partial<Record<string, unknown>> = {}) => ({
  messageId: id,
  status,
  receiptDelivered: rd,
  from: ALICE,
  to: BOB,
  sourceBlockchainId: C_CHAIN,
  ...o,
});
const change = (record: Record<string, unknown>, happenedAt: number, visibleAt = happenedAt): RecordChange => ({ record, happenedAt, visibleAt });
const keys = (m: Map<string, unknown>) => [...m.keys()].sort();
const watched = new Set([ALICE.toLowerCase()]);

describe('the ground truth', () => {
  it('a record first written after the baseline is new, then leaves pending, then has its receipt', () => {
    const t = new GroundTruth();
    t.add([change(rec('m1', 'pending'), 100)]);
    t.add([change(rec('m1', 'delivered'), 200)]);
    t.add([change(rec('m1', 'delivered', true), 300)]);
    const e = t.expected({ baselineAt: 50, watched });
    expect(Object.fromEntries(e)).toEqual({
      'm1:new': { happenedAt: 100, visibleAt: 100 },
      'm1:left_pending': { happenedAt: 200, visibleAt: 200 },
      'm1:receipt_delivered': { happenedAt: 300, visibleAt: 300 },
    });
  });

  it('a change at the baseline instant is news; one just before it is part of the baseline', () => {
    const t = new GroundTruth();
    t.add([change(rec('m1', 'pending'), 99), change(rec('m2', 'pending'), 100)]);
    t.add([change(rec('m1', 'delivered'), 100)]);
    expect(keys(t.expected({ baselineAt: 100, watched }))).toEqual(['m1:left_pending', 'm2:new']);
  });

  it('a record stored before the truth listened is history: only its later changes count', () => {
    const t = new GroundTruth();
    const stored = new Map([
      ['old-pending', rec('old-pending', 'pending')],
      ['old-done', rec('old-done', 'delivered', true)],
    ]);
    t.add([change(rec('old-pending', 'delivered'), 500), change(rec('old-done', 'delivered', true), 500)], (id) => stored.get(id));
    expect(keys(t.expected({ baselineAt: 10, watched }))).toEqual(['old-pending:left_pending']);
  });

  it("a route's watch (receipts: false) expects its messages until their delivery: no receipt", () => {
    const t = new GroundTruth();
    const onRoute = (r: Record<string, unknown>) => r.sourceBlockchainId === C_CHAIN && r.destinationBlockchainId === DISPATCH;
    t.add([change(rec('m1', 'pending', false, { destinationBlockchainId: DISPATCH }), 100), change(rec('m2', 'pending'), 100)]);
    t.add([change(rec('m1', 'delivered', false, { destinationBlockchainId: DISPATCH }), 200)]);
    t.add([change(rec('m1', 'delivered', true, { destinationBlockchainId: DISPATCH }), 300)]);
    expect(keys(t.expected({ baselineAt: 50, watched: onRoute, receipts: false }))).toEqual(['m1:left_pending', 'm1:new']);
    expect(keys(t.expected({ baselineAt: 50, watched: onRoute }))).toEqual(['m1:left_pending', 'm1:new', 'm1:receipt_delivered']);
  });

  it('changes before the baseline only set the state the baseline saw', () => {
    const t = new GroundTruth();
    t.add([change(rec('m1', 'pending'), 10)]);
    t.add([change(rec('m1', 'delivered'), 20)]);
    t.add([change(rec('m1', 'delivered', true), 300)]);
    expect(keys(t.expected({ baselineAt: 100, watched }))).toEqual(['m1:receipt_delivered']);
    // Nothing after the baseline: nothing expected.
    expect(keys(t.expected({ baselineAt: 400, watched }))).toEqual([]);
  });

  it('a record that happened before the baseline but became visible after it is news, with both times', () => {
    const t = new GroundTruth();
    t.add([change(rec('late', 'pending'), 90, 160)]);
    const e = t.expected({ baselineAt: 100, watched });
    expect(Object.fromEntries(e)).toEqual({ 'late:new': { happenedAt: 90, visibleAt: 160 } });
  });

  it('a record first seen delivered fires new and left_pending at once', () => {
    const t = new GroundTruth();
    t.add([change(rec('m1', 'delivered'), 100)]);
    expect(keys(t.expected({ baselineAt: 0, watched }))).toEqual(['m1:left_pending', 'm1:new']);
  });

  it('counts only watched addresses (either end, any case) on the asked network, or what a predicate picks', () => {
    const t = new GroundTruth();
    t.add([
      change(rec('to-alice', 'pending', false, { from: BOB, to: ALICE.toUpperCase().replace('0X', '0x') }), 5),
      change(rec('bob-only', 'pending', false, { from: BOB, to: BOB }), 5),
      change(rec('fuji', 'pending', false, { sourceBlockchainId: DISPATCH }), 5),
    ]);
    expect(keys(t.expected({ baselineAt: 0, watched, network: 'mainnet' }))).toEqual(['to-alice:new']);
    expect(keys(t.expected({ baselineAt: 0, watched }))).toEqual(['fuji:new', 'to-alice:new']);
    expect(keys(t.expected({ baselineAt: 0, watched: (r) => r.to === BOB }))).toEqual(['bob-only:new', 'fuji:new']);
  });

  it('compare names misses, counts every duplicate report, lists unexpected ones once, and keeps first-report times', () => {
    const t = new GroundTruth();
    t.add([change(rec('a', 'pending'), 100), change(rec('b', 'pending'), 100), change(rec('c', 'pending'), 100, 130)]);
    const r = compare(t.expected({ baselineAt: 0, watched }), [
      { id: 'a', kind: 'new', at: 110 },
      { id: 'a', kind: 'new', at: 120 },
      { id: 'c', kind: 'new', at: 150 },
      { id: 'x', kind: 'stuck', at: 150 },
      { id: 'x', kind: 'stuck', at: 160 },
    ]);
    expect(r.missed).toEqual(['b:new']);
    expect(r.duplicates).toBe(2);
    expect(r.unexpected).toEqual(['x:stuck']);
    expect(r.hits).toEqual([
      { key: 'a:new', happenedAt: 100, visibleAt: 100, detectedAt: 110 },
      { key: 'c:new', happenedAt: 100, visibleAt: 130, detectedAt: 150 },
    ]);
    // On-time records count from when they happened; late ones from when they became visible.
    expect(latencies(r.hits)).toEqual({ onTime: [10], late: [{ lag: 30, afterVisible: 20 }] });
    // A lag up to the threshold is on time, counted from when it happened.
    expect(latencies(r.hits, 30)).toEqual({ onTime: [10, 50], late: [] });
  });

  it('percentile is nearest-rank', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(xs, 50), percentile(xs, 95), percentile(xs, 99), percentile(xs, 100)]).toEqual([50, 95, 99, 100]);
    expect(percentile([], 50)).toBeNull();
  });

  describe('stuck, as the engine fires it', () => {
    const MIN = 60_000;
    const sent = (id: string, status: string, sentMin: number) => rec(id, status, false, { sourceTransaction: { timestamp: (sentMin * MIN) / 1000 } });
    const rule = { thresholdMs: 30 * MIN, endAt: 100 * MIN, marginMs: 2 * MIN };

    it('a message still pending at its threshold is stuck then; one delivered well before is not', () => {
      const t = new GroundTruth();
      t.add([change(sent('slow', 'pending', 10), 10 * MIN), change(sent('quick', 'pending', 10), 10 * MIN)]);
      t.add([change(sent('quick', 'delivered', 10), 20 * MIN)]);
      t.add([change(sent('slow', 'delivered', 10), 60 * MIN)]);
      const e = t.expected({ baselineAt: 5 * MIN, watched, stuck: rule });
      expect(e.get('slow:stuck')).toEqual({ happenedAt: 40 * MIN, visibleAt: 40 * MIN });
      expect(e.has('quick:stuck')).toBe(false);
      expect(e.has('slow:left_pending')).toBe(true);
    });

    it('a record that appears after its threshold is stuck when it appears', () => {
      const t = new GroundTruth();
      t.add([change(sent('late', 'pending', 10), 10 * MIN, 55 * MIN)]);
      expect(t.expected({ baselineAt: 5 * MIN, watched, stuck: rule }).get('late:stuck')).toEqual({ happenedAt: 55 * MIN, visibleAt: 55 * MIN });
    });

    it('a message pending all along since before the truth listened (a preload) is stuck, unless already over at the baseline', () => {
      const t = new GroundTruth();
      t.knowStored([sent('young', 'pending', 20), sent('old', 'pending', -40), sent('done', 'delivered', 20)]);
      const e = t.expected({ baselineAt: 5 * MIN, watched, stuck: rule });
      expect(keys(e)).toEqual(['young:stuck']);
      expect(e.get('young:stuck')).toEqual({ happenedAt: 50 * MIN, visibleAt: 50 * MIN });
    });

    it('either way near a delivery, the baseline or the end: never missed, never unexpected', () => {
      const t = new GroundTruth();
      t.add([change(sent('close', 'pending', 10), 10 * MIN), change(sent('edge', 'pending', 69.5), 69.5 * MIN)]);
      t.add([change(sent('close', 'delivered', 10), 39 * MIN)]);
      const e = t.expected({ baselineAt: 5 * MIN, watched, stuck: rule });
      expect(e.get('close:stuck')?.optional).toBe(true);
      expect(e.get('edge:stuck')?.optional).toBe(true);
      expect(compare(e, []).missed.filter((k) => k.endsWith(':stuck'))).toEqual([]);
      const judged = compare(e, [{ id: 'close', kind: 'stuck', at: 40 * MIN }]);
      expect(judged.unexpected).toEqual([]);
      expect(judged.hits.map((h) => h.key)).toContain('close:stuck');
    });

    it('a late record whose delivery shows within the late sighting bound of it is either way; one delivered later is stuck', () => {
      const t = new GroundTruth();
      // Both sent at 10 min, held by a stall until 55 min; one delivered visible 4 min after it reappears, one 12 min after.
      t.add([change(sent('held', 'pending', 10), 10 * MIN, 55 * MIN), change(sent('stays', 'pending', 10), 10 * MIN, 55 * MIN)]);
      t.add([change(sent('held', 'delivered', 10), 11 * MIN, 59 * MIN), change(sent('stays', 'delivered', 10), 11 * MIN, 67 * MIN)]);
      const e = t.expected({ baselineAt: 5 * MIN, watched, stuck: { ...rule, lateSightingMs: 10 * MIN } });
      expect(e.get('held:stuck')?.optional).toBe(true);
      expect(e.get('stays:stuck')).toEqual({ happenedAt: 55 * MIN, visibleAt: 55 * MIN });
      // Without the bound, only the 2 min margin: the first is expected too.
      expect(t.expected({ baselineAt: 5 * MIN, watched, stuck: rule }).get('held:stuck')?.optional).toBeUndefined();
    });

    it('without a rule no stuck is expected, and a reported one is unexpected', () => {
      const t = new GroundTruth();
      t.add([change(sent('slow', 'pending', 10), 10 * MIN)]);
      const e = t.expected({ baselineAt: 5 * MIN, watched });
      expect(compare(e, [{ id: 'slow', kind: 'stuck', at: 40 * MIN }]).unexpected).toEqual(['slow:stuck']);
    });
  });

  it('on the real local service: sees every record the simulator writes, as the store ends up holding it', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
    const svc = await startLocalService({ clock, seed: 3, rate: 5, addressCount: 20, preload: 50 });
    try {
      const truth = GroundTruth.listen(svc);
      const baselineAt = clock.now();
      await clock.advance(60_000);
      truth.stop();
      const all = new Set(svc.simulator.addresses);
      const e = truth.expected({ baselineAt, watched: all });
      const fresh = [...e.keys()].filter((k) => k.endsWith(':new')).map((k) => k.split(':')[0]!);
      // Five a second for a minute, give or take the draw; preloaded records changed only by later steps.
      expect(fresh.length).toBeGreaterThan(150);
      expect(fresh.length).toBeLessThan(truth.size + 1);
      for (const id of fresh) {
        const stored = svc.store.get(id)!;
        expect(stored).toBeTruthy();
        expect(truth.latest(id)?.status).toBe(stored.status);
        expect(e.has(`${id}:left_pending`)).toBe(stored.status !== 'pending');
      }
      // Stopped: later changes are not recorded.
      const size = truth.size;
      await clock.advance(10_000);
      expect(truth.size).toBe(size);
    } finally {
      await svc.close();
    }
  });
});
