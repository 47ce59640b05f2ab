import type { Db } from './database';

/**
 * Deletes what only this watcher brought in: its messages no other watch or feed shares, their
 * search entries, transitions (Activity) and notifications. Used when demo addresses leave the
 * watchlist, so the simulated history does not stay mixed into a real data source's Activity and
 * Local cache. Call before the watch itself is removed (it reads the watcher's message links).
 */
export function forgetWatcherData(db: Db, watcher: string): number {
  const only = `SELECT message_id FROM message_watchers WHERE watcher = @w
    AND message_id NOT IN (SELECT message_id FROM message_watchers WHERE watcher <> @w)`;
  // The text indexes are keyed by the messages' rowids: without this a text search still counted them.
  const rowids = `SELECT rowid FROM messages WHERE message_id IN (${only})`;
  return db.transaction(() => {
    db.prepare(`DELETE FROM outbox WHERE message_id IN (${only})`).run({ w: watcher });
    db.prepare(`DELETE FROM transitions WHERE message_id IN (${only})`).run({ w: watcher });
    db.prepare(`DELETE FROM messages_fts WHERE rowid IN (${rowids})`).run({ w: watcher });
    db.prepare(`DELETE FROM messages_prefix WHERE rowid IN (${rowids})`).run({ w: watcher });
    return db.prepare(`DELETE FROM messages WHERE message_id IN (${only})`).run({ w: watcher }).changes;
  })();
}
