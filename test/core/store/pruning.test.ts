import { describe, expect, it } from 'vitest';
import { logNewTransition, messageRow, useStore } from './store-rig';

describe('Pruner (real SQLite)', () => {
  const store = useStore();

  const log = (messageId: string, at: number) => logNewTransition(store(), messageId, at);

  it('lets go of settled messages whose latest transaction is before the cutoff, however recently seen, with their links and search entries; keeps tracked ones', () => {
    // Times in seconds on the records (delivered 10 s after sending), the cutoff and sightings in ms.
    const oldSettled = messageRow({ status: 'delivered', receiptDelivered: true, ts: 100 }, { seenAt: 900_000 });
    const oldTracked = messageRow({ status: 'pending', ts: 100 }, { seenAt: 100_000, tracked: true });
    const recent = messageRow({ status: 'delivered', receiptDelivered: true, ts: 900 }, { seenAt: 900_000 });
    for (const r of [oldSettled, oldTracked, recent]) {
      store().messages.insert(r);
      store().messageWatchers.add(r.messageId, '0xabc', 1, false);
    }
    expect(store().pruner.prune(500_000).messages).toBe(1);
    expect(store().messages.has(oldSettled.messageId)).toBe(false);
    expect(store().messageWatchers.of(oldSettled.messageId)).toEqual([]);
    expect(store().search.find({ text: oldSettled.messageId }).total).toBe(0);
    expect(
      store()
        .search.find({ text: oldSettled.messageId.slice(0, 2) })
        .items.map((s) => s.messageId),
    ).not.toContain(oldSettled.messageId);
    expect(store().messages.has(oldTracked.messageId)).toBe(true);
    expect(store().search.find({ text: recent.messageId }).total).toBe(1);
  });

  it('lets go of a pending message no longer tracked, or one without times, only when no read has met it since the cutoff', () => {
    const metLately = messageRow({ status: 'pending', ts: 100 }, { seenAt: 900_000 });
    const notMet = messageRow({ status: 'pending', ts: 100 }, { seenAt: 100_000 });
    const undated = messageRow({ status: 'delivered', receiptDelivered: true }, { sourceTs: null, destinationTs: null, seenAt: 900_000 });
    for (const r of [metLately, notMet, undated]) store().messages.insert(r);
    expect(store().pruner.prune(500_000).messages).toBe(1);
    expect(store().messages.has(notMet.messageId)).toBe(false);
    expect(store().messages.has(metLately.messageId)).toBe(true);
    expect(store().messages.has(undated.messageId)).toBe(true);
  });

  it('lets go of more settled messages than one batch holds, all of them, and reports how many', () => {
    const old = Array.from({ length: 450 }, () => messageRow({ status: 'delivered', receiptDelivered: true, ts: 100 }, { seenAt: 900_000 }));
    for (const r of old) store().messages.insert(r);
    expect(store().pruner.prune(500_000).messages).toBe(450);
    expect(old.some((r) => store().messages.has(r.messageId))).toBe(false);
  });

  it('deletes old log entries unless their notification is still undelivered, and delivered notifications past the cutoff', () => {
    const shown = log('m1', 100);
    const waiting = log('m2', 100);
    log('m3', 900);
    store().outbox.add({ transitionId: shown, messageId: 'm1', title: 't', body: 'b', createdAt: 100 });
    store().outbox.ack(store().outbox.claim()[0]!.id, 200);
    store().outbox.add({ transitionId: waiting, messageId: 'm2', title: 't', body: 'b', createdAt: 100 });
    expect(store().pruner.prune(500).transitions).toBe(1);
    expect(
      store()
        .transitions.list({})
        .map((t) => t.messageId)
        .sort(),
    ).toEqual(['m2', 'm3']);
    expect(store().outbox.pendingCount()).toBe(1);
    expect(store().db.prepare('SELECT COUNT(*) FROM outbox').pluck().get()).toBe(1);
  });
});
