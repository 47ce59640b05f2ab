/**
 * One database file, one service. The connection takes SQLite's exclusive lock at open and keeps it
 * (`locking_mode = EXCLUSIVE`); the OS drops the lock when the process dies, even by kill -9, so a
 * stale lock cannot outlive its owner. A second service on the same file gets a clear error instead
 * of writing next to the first (which once ended in "UNIQUE constraint failed: chains...").
 */

/** How long a new service waits for an old one on the same file to finish closing. */
const WAIT_FOR_PREVIOUS_MS = 3_000;

/** Closes `db` and throws when another process holds the file. Uses only exec and close. */
export function claimSoleWriter(db: { exec(sql: string): unknown; close(): unknown }, path: string, busyMs = WAIT_FOR_PREVIOUS_MS): void {
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyMs))}`);
  db.exec('PRAGMA locking_mode = EXCLUSIVE');
  try {
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
  } catch (e) {
    db.close();
    const err = e as { code?: string; errcode?: number; message?: string };
    if (err.code?.startsWith('SQLITE_BUSY') || err.code?.startsWith('SQLITE_LOCKED') || err.errcode === 5 || /database is locked/i.test(err.message ?? '')) {
      throw new Error(`Database ${path} is in use by another local service (SQLite lock held). Stop that service, or give this one another --db file.`);
    }
    throw e;
  }
}
