/**
 * bench:relayers tells a delivery the core has not read yet from one it dropped, from the core's own
 * database file: a real SQLite file made by the core's migrations, rows as the core writes them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/store';
import { readLagAllowedMs } from '../../bench/not-read-yet';
import { missingDeliveries, notYetDue, type MissingDelivery } from '../../bench/relayers-missing';
import type { TruthDelivery } from '../../bench/relayer-truth';

const MIN = 60_000;
const END = Date.UTC(2026, 0, 1, 2);
const RELAYER = '0x00000000000000000000000000000000000000aa';
const OTHER = '0x00000000000000000000000000000000000000bb';

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

function delivery(messageId: string, deliveredAt: number, visibleAt = deliveredAt): TruthDelivery {
  return { messageId, deliverer: RELAYER, route: 'A>B', sentAt: deliveredAt - MIN, deliveredAt, visibleAt, reward: null };
}

/** The core's row for a message: pending (deliveredAt null) or delivered by `deliverer`, last read at `seenAt`. */
function coreRow(db: ReturnType<typeof openDatabase>, rowid: number, id: string, seenAt: number, deliveredAt: number | null, deliverer = RELAYER): void {
  const raw = JSON.stringify({
    messageId: id,
    ...(deliveredAt === null ? {} : { destinationTransaction: { timestamp: deliveredAt / 1000, delivererAddress: deliverer } }),
  });
  db.prepare(
    `INSERT INTO messages (rowid, message_id, network, status, receipt_delivered, from_addr, to_addr, source_chain, destination_chain,
       source_ts, destination_ts, first_seen_at, last_seen_at, tracked, raw)
     VALUES (?, ?, 'mainnet', ?, 0, '0x1', '0x2', 'A', 'B', ?, ?, ?, ?, ?, ?)`,
  ).run(
    rowid,
    id,
    deliveredAt === null ? 'pending' : 'delivered',
    END / 1000 - 3600,
    deliveredAt === null ? null : deliveredAt / 1000,
    seenAt,
    seenAt,
    deliveredAt === null ? 1 : 0,
    raw,
  );
  db.prepare("INSERT INTO message_watchers (message_id, watcher, added_at, baseline) VALUES (?, 'route:r1', ?, 0)").run(id, seenAt);
}

describe('bench:relayers: which deliveries the figures lack', () => {
  it('tells not yet read (pending, last read before the delivery showed) from dropped, mis-attributed, never seen and invented', () => {
    dir = mkdtempSync(join(tmpdir(), 'tw-relayers-missing-'));
    const db = openDatabase(dir);
    const at = END - 10 * MIN;
    coreRow(db, 1, 'counted', at + MIN, at);
    coreRow(db, 2, 'unread', at - MIN, null); // read a minute before its delivery showed
    coreRow(db, 3, 'read', at + MIN, null); // read a minute after, still pending: the core's miss
    coreRow(db, 4, 'other', at + MIN, at, OTHER);
    coreRow(db, 5, 'invented', at + MIN, at); // delivered in the core's cache, not in the truth
    db.close();
    const truth = ['counted', 'unread', 'read', 'other', 'absent'].map((id) => delivery(id, at));
    const { missing, extra } = missingDeliveries(dir, truth, END, END - 2 * 3_600_000);
    expect(Object.fromEntries(missing.map((m) => [m.messageId, m.state]))).toEqual({
      unread: 'pending_unread',
      read: 'pending_read',
      other: 'other_deliverer',
      absent: 'never_seen',
    });
    expect(missing.find((m) => m.messageId === 'unread')).toMatchObject({ deliveredBeforeEndS: 600, readBeforeEndS: 660, latencyS: 60 });
    expect(extra).toBe(1);
  });

  it('allows a pending message its documented re-check cadence, two intervals and how far behind the status said', () => {
    const interval = 30_000;
    expect(readLagAllowedMs(MIN, interval, 0)).toBe(90_000); // younger than 2 min: every cycle
    expect(readLagAllowedMs(40 * MIN, interval, 0)).toBe(10 * MIN + 60_000); // a quarter of its age
    expect(readLagAllowedMs(3 * MIN, interval, 0)).toBe(150_000); // at least 3 intervals
    expect(readLagAllowedMs(10 * 3_600_000, interval, 0)).toBe(3_600_000 + 60_000); // at most 1 h
    expect(readLagAllowedMs(40 * MIN, interval, 5 * MIN)).toBe(15 * MIN + 60_000);
    // The core's own "behind" counts for 30 min at most (the stated lateness): 34.5 min is not all excused.
    expect(readLagAllowedMs(40 * MIN, interval, 34.5 * MIN)).toBe(40 * MIN + 60_000);
  });

  it("excuses no more of the core's behind than 30 min: past it, a delivery not read is a drop", () => {
    const interval = 30_000;
    const neverSeen = (shownBeforeEndS: number): MissingDelivery => ({
      route: 'A>B',
      deliverer: RELAYER,
      state: 'never_seen',
      deliveredBeforeEndS: shownBeforeEndS,
      visibleAfterS: 0,
      shownBeforeEndS,
      latencyS: 60,
      readBeforeEndS: null,
      trackingEnded: null,
    });
    // Shown 20 min before the end, the core 25 min behind: still owed a read.
    expect(notYetDue(neverSeen(20 * 60), interval, 25 * MIN)).toBe(true);
    // Shown 33 min before the end: the core says 34.5 min behind, but only 30 min + 2 intervals are excused.
    expect(notYetDue(neverSeen(33 * 60), interval, 34.5 * MIN)).toBe(false);
    expect(notYetDue(neverSeen(31 * 60), interval, 34.5 * MIN)).toBe(true);
    // Read after its delivery showed and still pending: never excused, however far behind.
    expect(notYetDue({ ...neverSeen(60), state: 'pending_read', readBeforeEndS: 30 }, interval, 34.5 * MIN)).toBe(false);
  });
});
