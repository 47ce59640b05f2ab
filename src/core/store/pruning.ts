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
      settled: db.prepare<[number], { rowid: number; message_id: string }>('SELECT rowid, message_id FROM messages WHERE last_seen_at < ? AND tracked = 0'),
      deleteWatchers: db.prepare('DELETE FROM message_watchers WHERE message_id = ?'),
      deleteMessage: db.prepare('DELETE FROM messages WHERE rowid = ?'),
      // A transition whose notification is still undelivered stays until it is shown.
      deleteTransitions: db.prepare(
        'DELETE FROM transitions WHERE at < ? AND id NOT IN (SELECT transition_id FROM outbox WHERE delivered_at IS NULL AND transition_id IS NOT NULL)',
      ),
      deleteDelivered: db.prepare('DELETE FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at < ?'),
      // Resolved relayer episodes no notification still points at.
      deleteEpisodes: db.prepare(
        'DELETE FROM relayer_episodes WHERE resolved_at < ? AND id NOT IN (SELECT episode_id FROM outbox WHERE episode_id IS NOT NULL)',
      ),
    };
  }

  /** Deletes settled messages not seen since `olderThan`, and older log entries and delivered notifications. */
  prune(olderThan: number): { messages: number; transitions: number } {
    return this.db.transaction(() => {
      const old = this.stmts.settled.all(olderThan);
      for (const r of old) {
        this.index.remove(r.rowid);
        this.stmts.deleteWatchers.run(r.message_id);
        this.stmts.deleteMessage.run(r.rowid);
      }
      const t = this.stmts.deleteTransitions.run(olderThan);
      this.stmts.deleteDelivered.run(olderThan);
      this.stmts.deleteEpisodes.run(olderThan);
      return { messages: old.length, transitions: t.changes };
    })();
  }
}
