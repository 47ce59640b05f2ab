/**
 * BENCH_INJECT_DROPS for `npm run bench:relayers`: turns delivered route messages in the core's database
 * back to pending, as if the core had read them after their delivery and lost it, so a test can prove
 * the judge fails on a drop (test/bench/relayers-judge.test.ts). Never set in a measured run.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DATABASE_FILE } from '../src/core/store/database';

export function dropDeliveries(dataDir: string, count: number, now: number): number {
  const db = new DatabaseSync(join(dataDir, DATABASE_FILE));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const ids = db
      .prepare(
        `SELECT m.message_id AS id FROM messages m WHERE m.destination_ts IS NOT NULL
           AND EXISTS (SELECT 1 FROM message_watchers w WHERE w.message_id = m.message_id AND w.watcher LIKE 'route:%')
         ORDER BY m.destination_ts DESC LIMIT ?`,
      )
      .all(count) as { id: string }[];
    const drop = db.prepare(
      `UPDATE messages SET status = 'pending', destination_ts = NULL, last_seen_at = ?,
         raw = json_remove(raw, '$.destinationTransaction') WHERE message_id = ?`,
    );
    for (const { id } of ids) drop.run(now, id);
    return ids.length;
  } finally {
    db.close();
  }
}
