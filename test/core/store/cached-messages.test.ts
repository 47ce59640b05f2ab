import { describe, expect, it } from 'vitest';
import { messageRow, useStore } from './store-rig';
import { BEAM, C_CHAIN } from '../helpers';

describe('CachedMessages (real SQLite)', () => {
  const store = useStore();

  it('gives messages of one second consecutive rowids, in time order across seconds', () => {
    const a = messageRow({ ts: 1_767_000_010 });
    const b = messageRow({ ts: 1_767_000_010 });
    const c = messageRow({ ts: 1_767_000_005 });
    for (const r of [a, b, c]) store().messages.insert(r);
    const [ra, rb, rc] = [a, b, c].map((r) => store().messages.state(r.messageId)!.rowid);
    expect(rb).toBe(ra! + 1);
    expect(rc).toBeLessThan(ra!);
    expect(
      store()
        .search.find({})
        .items.map((s) => s.messageId),
    ).toEqual([b.messageId, a.messageId, c.messageId]);
  });

  it('reads back what was written, through one mapping', () => {
    const row = messageRow({ status: 'delivered', ts: 1_767_000_000 }, { tracked: true, pendingSince: 500, stuckFired: true, seenAt: 2_000 });
    store().messages.insert(row);
    expect(store().messages.has(row.messageId)).toBe(true);
    expect(store().messages.has('0'.repeat(64))).toBe(false);
    expect(store().messages.state(row.messageId)).toMatchObject({
      messageId: row.messageId,
      network: 'mainnet',
      status: 'delivered',
      from: row.from,
      to: row.to,
      sourceTs: 1_767_000_000,
      destinationTs: 1_767_000_010,
      sortTs: 1_767_000_000,
      firstSeenAt: 2_000,
      lastSeenAt: 2_000,
      tracked: true,
      pendingSince: 500,
      stuckFired: true,
    });
    expect(store().messages.sameRaw(store().messages.state(row.messageId)!.rowid, row.raw)).toBe(true);
    expect(store().messages.get(row.messageId)?.message).toEqual(JSON.parse(row.raw));
  });

  it('an update keeps the rowid, replaces the record and its search text', () => {
    const row = messageRow({ status: 'pending' });
    store().messages.insert(row);
    const before = store().messages.state(row.messageId)!;
    const next = messageRow({ id: row.messageId, status: 'delivered', from: row.from, to: row.to }, { seenAt: 3_000 });
    store().messages.update(before.rowid, next);
    const after = store().messages.state(row.messageId)!;
    expect(after.rowid).toBe(before.rowid);
    expect(after.status).toBe('delivered');
    expect(after.firstSeenAt).toBe(1_000);
    expect(after.lastSeenAt).toBe(3_000);
    const oldHash = (JSON.parse(row.raw) as { sourceTransaction: { txHash: string } }).sourceTransaction.txHash;
    const newHash = (JSON.parse(next.raw) as { sourceTransaction: { txHash: string } }).sourceTransaction.txHash;
    expect(store().search.find({ text: oldHash }).total).toBe(0);
    expect(
      store()
        .search.find({ text: newHash })
        .items.map((s) => s.messageId),
    ).toEqual([row.messageId]);
  });

  it('lists tracked messages that pass a test, and those past the stuck, receipt or pending limit; ends tracking with a reason', () => {
    const pendingOld = messageRow({ status: 'pending' }, { tracked: true, pendingSince: 100 });
    const pendingNew = messageRow({ status: 'pending' }, { tracked: true, pendingSince: 900 });
    // The receipt wait counts from the delivery, else from the first sighting (here 100), never from the last one.
    const noReceipt = messageRow({ status: 'delivered' }, { tracked: true, destinationTs: null, seenAt: 100 });
    const settled = messageRow({ status: 'delivered', receiptDelivered: true });
    for (const r of [pendingOld, pendingNew, noReceipt, settled]) store().messages.insert(r);
    expect(store().messages.trackedCount()).toBe(3);
    expect(
      store()
        .messages.trackedWhere((t) => t.status === 'pending')
        .map((t) => t.messageId)
        .sort(),
    ).toEqual([pendingOld.messageId, pendingNew.messageId].sort());
    expect(
      store()
        .messages.sweepable(500, 50, 0, 0)
        .map((t) => t.messageId),
    ).toEqual([pendingOld.messageId]);
    expect(
      store()
        .messages.sweepable(500, 500, 0, 0)
        .map((t) => t.messageId)
        .sort(),
    ).toEqual([pendingOld.messageId, noReceipt.messageId].sort());
    store().messages.markStuck(pendingOld.messageId);
    expect(store().messages.sweepable(500, 50, 0, 0)).toEqual([]);
    // Pending since 100: past a pending limit at 150, even after `stuck` fired.
    expect(
      store()
        .messages.sweepable(0, 0, 150, 0)
        .map((t) => t.messageId),
    ).toEqual([pendingOld.messageId]);
    store().messages.endTracking(noReceipt.messageId, 'receipt_missing', 7_000);
    expect(store().messages.trackedCount()).toBe(2);
    expect(store().messages.get(noReceipt.messageId)?.trackingEnded).toEqual({ reason: 'receipt_missing', at: 7_000, afterHours: 24 });
    expect(store().messages.get(pendingNew.messageId)?.trackingEnded).toBeUndefined();
  });

  it('lists a receipted failed execution still tracked (awaiting its retry) past the retry window; settling it leaves no reason', () => {
    const failed = messageRow({ status: 'delivered', receiptDelivered: true }, { tracked: true, destinationTs: 100 });
    store().messages.insert(failed);
    expect(
      store()
        .messages.sweepable(0, 0, 0, 99_000)
        .map((t) => t.messageId),
    ).toEqual([]);
    expect(
      store()
        .messages.sweepable(0, 0, 0, 100_000)
        .map((t) => t.messageId),
    ).toEqual([failed.messageId]);
    // Nothing of it is open: receipt carriers do not look for it.
    expect(
      store()
        .messages.openByNonce(C_CHAIN, BEAM, '1')
        .map((o) => o.messageId),
    ).not.toContain(failed.messageId);
    store().messages.settle(failed.messageId);
    expect(store().messages.trackedCount()).toBe(0);
    expect(store().messages.get(failed.messageId)?.trackingEnded).toBeUndefined();
  });

  it('names the watched addresses of a message, not its feeds', () => {
    const row = messageRow({});
    store().messages.insert(row);
    store().messageWatchers.add(row.messageId, row.from, 1, false);
    store().messageWatchers.add(row.messageId, 'feed:abc', 1, true);
    expect(store().messages.get(row.messageId)?.watchedAddresses).toEqual([row.from]);
  });
});
