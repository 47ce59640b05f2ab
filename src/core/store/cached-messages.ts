import { TRACKING_LIMIT_HOURS, type CachedMessage, type TrackingEnded, type TrackingEndReason } from '../../shared/contract';
import type { SourceKey } from '../../shared/sources';
import type { Db } from './database';
import type { MessageWatchers } from './message-watchers';
import {
  MESSAGE_COLUMNS,
  messageParams,
  toCachedMessage,
  toMessageState,
  type MessageColumnsRow,
  type MessageRow,
  type MessagesRow,
  type MessageState,
  type TrackedMessage,
} from './messages-table';
import type { SearchIndex } from './search-index';

/** Sort keys per second of timestamp (see CachedMessages.insert). */
const ROWS_PER_SECOND = 1_000_000;

/** A tracked message as the messages carrying receipts back name it. */
export interface OpenByRoute {
  messageId: string;
  /** Still pending (else delivered, awaiting its receipt). */
  pending: boolean;
  /** The messenger contract that sent it (nonces repeat across messenger versions on one route). */
  contract: string;
  /** Where the list operation sorts it (source timestamp, else destination), seconds. */
  sortTs: number | null;
}

/** The latest record of every observed message and its tracking state (`messages`), with its search text. */
export class CachedMessages {
  private readonly stmts;

  constructor(
    db: Db,
    private readonly index: SearchIndex,
    private readonly watchers: MessageWatchers,
    /** The current data source's key. */
    private readonly source: () => SourceKey,
  ) {
    const columns = MESSAGE_COLUMNS;
    this.stmts = {
      state: db.prepare<[string], MessageColumnsRow>(`SELECT ${columns} FROM messages WHERE message_id = ?`),
      // Compared inside SQLite: most observations repeat the stored record, and reading it back into JS
      // for every message of every page was most of a poll cycle's garbage.
      sameRaw: db.prepare<[string, number], number>('SELECT raw = ? FROM messages WHERE rowid = ?').pluck(),
      maxInSecond: db.prepare<[number, number], number | null>('SELECT MAX(rowid) FROM messages WHERE rowid BETWEEN ? AND ?').pluck(),
      insert: db.prepare(
        `INSERT INTO messages (rowid, message_id, network, status, receipt_delivered, from_addr, to_addr, source_chain, destination_chain,
           source_ts, destination_ts, raw, first_seen_at, last_seen_at, tracked, pending_since, stuck_fired, source)
         VALUES (@rowid, @messageId, @network, @status, @rd, @from, @to, @sourceChain, @destinationChain, @sourceTs, @destinationTs, @raw,
           @seenAt, @seenAt, @tracked, @pendingSince, @stuckFired, @source)`,
      ),
      update: db.prepare(
        `UPDATE messages SET status = @status, receipt_delivered = @rd, raw = @raw, destination_ts = @destinationTs,
           source_ts = COALESCE(@sourceTs, source_ts), last_seen_at = @seenAt, tracked = @tracked, pending_since = @pendingSince,
           stuck_fired = @stuckFired, source = @source WHERE message_id = @messageId`,
      ),
      touch: db.prepare('UPDATE messages SET last_seen_at = ?, source = ? WHERE message_id = ?'),
      exists: db.prepare<[string], number>('SELECT 1 FROM messages WHERE message_id = ?').pluck(),
      markStuck: db.prepare('UPDATE messages SET stuck_fired = 1 WHERE message_id = ?'),
      endTracking: db.prepare('UPDATE messages SET tracked = 0, tracking_ended = ?, tracking_ended_at = ? WHERE message_id = ?'),
      settle: db.prepare('UPDATE messages SET tracked = 0 WHERE message_id = ?'),
      // Tracking, stuck and the receipt hints follow the current source's messages only: another source's
      // are held as they stood (never re-checked against, nor judged from, a source that did not show them).
      tracked: db.prepare<[string], MessageColumnsRow>(`SELECT ${columns} FROM messages WHERE tracked = 1 AND source = ?`),
      // The receipt wait counts from the delivery (else from the first sighting), never from the last
      // sighting: every re-check moves that one, and the limit would never come.
      sweepable: db.prepare<{ stuckBefore: number; receiptBefore: number; pendingBefore: number; retryBefore: number; source: string }, MessageColumnsRow>(
        `SELECT ${columns} FROM messages WHERE tracked = 1 AND source = @source AND (
           (status = 'pending' AND stuck_fired = 0 AND COALESCE(pending_since, last_seen_at) <= @stuckBefore)
           OR (status = 'pending' AND COALESCE(pending_since, first_seen_at) <= @pendingBefore)
           OR (status <> 'pending' AND receipt_delivered = 0 AND COALESCE(destination_ts * 1000, first_seen_at) <= @receiptBefore)
           OR (status <> 'pending' AND receipt_delivered = 1 AND COALESCE(destination_ts * 1000, first_seen_at) <= @retryBefore))`,
      ),
      trackedCount: db.prepare<[string], number>('SELECT COUNT(*) FROM messages WHERE tracked = 1 AND source = ?').pluck(),
      // Uses messages_open_nonce (migration 14): the tracked messages of one route with one nonce.
      openByNonce: db.prepare<[string, string, string, string], { message_id: string; pending: number; contract: unknown; sort_ts: number | null }>(
        `SELECT message_id, status = 'pending' AS pending, COALESCE(source_ts, destination_ts) AS sort_ts,
                COALESCE(json_extract(raw, '$.icmContractAddress'), json_extract(raw, '$.teleporterContractAddress')) AS contract
         FROM messages
         WHERE tracked = 1 AND source_chain = ? AND destination_chain = ? AND CAST(json_extract(raw, '$.messageNonce') AS TEXT) = ? AND source = ?
           AND (status = 'pending' OR receipt_delivered = 0)`,
      ),
      get: db.prepare<[string], MessagesRow & TrackingEndedColumns>(
        `SELECT ${columns}, tracking_ended, tracking_ended_at, raw FROM messages WHERE message_id = ?`,
      ),
    };
  }

  state(messageId: string): MessageState | null {
    const r = this.stmts.state.get(messageId);
    return r ? toMessageState(r) : null;
  }

  has(messageId: string): boolean {
    return this.stmts.exists.get(messageId) !== undefined;
  }

  /** Is this the stored raw JSON of the message? */
  sameRaw(rowid: number, raw: string): boolean {
    return this.stmts.sameRaw.get(raw, rowid) === 1;
  }

  /**
   * Inserts a message. Its rowid is its sort key (timestamp in seconds × 1e6 + a counter within the
   * second), so the table and the search index are both kept newest-last by time, and "newest first"
   * is a backwards walk of the primary key that stops at the page size.
   */
  insert(row: MessageRow): void {
    const dated = row.sourceTs ?? row.destinationTs;
    // The boundary (record-bounds.ts) lets no such time through; should one come, the row sorts by when it
    // was seen rather than take a key past 2^53 that no later read of it could survive.
    const second = dated !== null && Number.isSafeInteger((dated + 1) * ROWS_PER_SECOND) ? dated : Math.floor(row.seenAt / 1000);
    const lo = second * ROWS_PER_SECOND;
    const max = this.stmts.maxInSecond.get(lo, lo + ROWS_PER_SECOND - 1) ?? null;
    const rowid = max === null ? lo : max + 1;
    this.stmts.insert.run({ ...messageParams(row), rowid });
    this.index.add(rowid, row.searchText);
  }

  /** Replaces a stored message (same rowid: its place in time order stays). */
  update(rowid: number, row: MessageRow): void {
    this.stmts.update.run(messageParams(row));
    this.index.replace(rowid, row.searchText);
  }

  /** Another sighting of an unchanged record, by this source. */
  touch(messageId: string, at: number, source: SourceKey): void {
    this.stmts.touch.run(at, source, messageId);
  }

  markStuck(messageId: string): void {
    this.stmts.markStuck.run(messageId);
  }

  /** Stops tracking a message that passed a tracking limit, and records which (shown on the message and in the metrics). */
  endTracking(messageId: string, reason: TrackingEndReason, at: number): void {
    this.stmts.endTracking.run(reason, at, messageId);
  }

  /** No longer followed, with nothing left open: a receipted failed execution past the hour its retry is looked for. */
  settle(messageId: string): void {
    this.stmts.settle.run(messageId);
  }

  /**
   * Tracked messages of the current source that pass `keep`, read one row at a time: a poll cycle wants only the few due for
   * a re-check, and holding every tracked row until filtering kept thousands of objects alive.
   */
  trackedWhere(keep: (t: TrackedMessage) => boolean): TrackedMessage[] {
    const out: TrackedMessage[] = [];
    for (const r of this.stmts.tracked.iterate(this.source())) {
      const t = toMessageState(r);
      if (keep(t)) out.push(t);
    }
    return out;
  }

  /** Tracked messages that may be stuck (pending since before `stuckBefore`), past their receipt wait, or past the wait for a failed execution's retry. */
  sweepable(stuckBefore: number, receiptBefore: number, pendingBefore: number, retryBefore: number): TrackedMessage[] {
    return this.stmts.sweepable.all({ stuckBefore, receiptBefore, pendingBefore, retryBefore, source: this.source() }).map(toMessageState);
  }

  /**
   * The open tracked messages (pending, or awaiting the receipt; not one followed only for a failed
   * execution's retry) of the current source sent on this route with this nonce, each with its messenger
   * contract (what a message carrying receipts back names; nonces repeat across messenger versions).
   */
  openByNonce(sourceChain: string, destinationChain: string, nonce: string): OpenByRoute[] {
    return this.stmts.openByNonce.all(sourceChain, destinationChain, nonce, this.source()).map((r) => ({
      messageId: r.message_id,
      pending: r.pending === 1,
      contract: typeof r.contract === 'string' ? r.contract : '',
      sortTs: r.sort_ts,
    }));
  }

  trackedCount(): number {
    return this.stmts.trackedCount.get(this.source()) ?? 0;
  }

  /** The full stored record of a message, with the addresses watching it. */
  get(messageId: string): CachedMessage | null {
    const row = this.stmts.get.get(messageId);
    return row ? toCachedMessage(row, this.watchers.addressesOf(messageId), trackingEnded(row)) : null;
  }
}

interface TrackingEndedColumns {
  tracking_ended: string | null;
  tracking_ended_at: number | null;
  tracked: number;
}

function trackingEnded(r: TrackingEndedColumns): TrackingEnded | undefined {
  if (r.tracked === 1 || r.tracking_ended === null || r.tracking_ended_at === null) return undefined;
  if (r.tracking_ended !== 'receipt_missing' && r.tracking_ended !== 'pending_too_long') return undefined;
  return { reason: r.tracking_ended, at: r.tracking_ended_at, afterHours: TRACKING_LIMIT_HOURS[r.tracking_ended] };
}
