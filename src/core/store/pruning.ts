import type { Db } from './database';
import type { SearchIndex } from './search-index';

/** Retention: what `retentionDays` lets go of, across the cache, the log and the outbox. */
export class Pruner {
  private readonly stmts;

  constructor(
    private readonly db: Db,
    private readonly index: SearchIndex,
  ) {
    this.stmts = {
      // A settled message goes by its own time (its latest transaction's), not by when a read last met it:
      // the re-checks of older tracked messages page through it every hour, so it would never go. The
      // engine does not store it again once it is past the retention (TransitionEngine.observeOne).
      // A pending one no longer tracked, or one without a time, is kept while reads still return it.
      settled: db.prepare<[number], { rowid: number; message_id: string }>(
        `SELECT rowid, message_id FROM messages WHERE tracked = 0 AND CASE WHEN status = 'pending' THEN last_seen_at
           ELSE coalesce(1000 * max(source_ts, destination_ts), 1000 * source_ts, 1000 * destination_ts, last_seen_at) END < ?`,
      ),
      deleteWatchers: db.prepare('DELETE FROM message_watchers WHERE message_id = ?'),
      deleteMessage: db.prepare('DELETE FROM messages WHERE rowid = ?'),
      // A transition whose notification is still undelivered stays until it is shown.
      deleteTransitions: db.prepare(
        'DELETE FROM transitions WHERE at < ? AND id NOT IN (SELECT transition_id FROM outbox WHERE delivered_at IS NULL AND transition_id IS NOT NULL)',
      ),
      deleteDelivered: db.prepare('DELETE FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at < ?'),
      // Activity's alert entries go with the transitions of their time.
      deleteAlertEntries: db.prepare('DELETE FROM alert_entries WHERE at < ?'),
      // Resolved relayer episodes no notification still points at.
      deleteEpisodes: db.prepare(
        'DELETE FROM relayer_episodes WHERE resolved_at < ? AND id NOT IN (SELECT episode_id FROM outbox WHERE episode_id IS NOT NULL)',
      ),
    };
  }

  /**
   * Deletes settled messages whose latest transaction is older than `olderThan` (pending ones no longer
   * tracked: not seen since), and older log entries and delivered notifications.
   */
  prune(olderThan: number): { messages: number; transitions: number } {
    // Found in one pass, deleted in batches, each its own transaction: a day's worth at once (their search
    // index entries rewritten) would grow the write-ahead log by tens of MB, and the log file keeps its largest size.
    const old = this.stmts.settled.all(olderThan);
    for (let i = 0; i < old.length; i += PRUNE_BATCH) this.deleteMessages(old.slice(i, i + PRUNE_BATCH));
    return this.db.transaction(() => {
      const t = this.stmts.deleteTransitions.run(olderThan);
      this.stmts.deleteDelivered.run(olderThan);
      this.stmts.deleteEpisodes.run(olderThan);
      this.stmts.deleteAlertEntries.run(olderThan);
      return { messages: old.length, transitions: t.changes };
    })();
  }

  /** Deletes these messages, their links and search entries, in one transaction. */
  private deleteMessages(rows: readonly { rowid: number; message_id: string }[]): void {
    this.db.transaction(() => {
      for (const r of rows) {
        this.index.remove(r.rowid);
        this.stmts.deleteWatchers.run(r.message_id);
        this.stmts.deleteMessage.run(r.rowid);
      }
    })();
  }
}

/** Messages deleted per transaction. */
const PRUNE_BATCH = 200;
