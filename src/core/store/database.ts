import { join } from 'node:path';
import { Database } from '../../sqlite';
import { MIGRATIONS } from './migrations';
import { NewerSchemaError } from './open-fault';
import { privateDir, privateFile } from './private-files';

export type Db = Database;

export const DATABASE_FILE = 'monitor.sqlite';
/** SQLite page cache per connection, KiB. */
const PAGE_CACHE_KIB = 4096;

/** Opens `<dataDir>/monitor.sqlite` in WAL mode and runs pending migrations. */
export function openDatabase(dataDir: string): Db {
  privateDir(dataDir);
  privateFile(join(dataDir, DATABASE_FILE));
  const db = new Database(join(dataDir, DATABASE_FILE));
  try {
    db.pragma('journal_mode = WAL');
    // NORMAL is durable across process crashes in WAL mode (only an OS crash may lose the last commits).
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // A small page cache: the core's working set (the tracked rows and the newest index pages) fits in
    // it, and the OS file cache serves the rest.
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    migrate(db);
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new NewerSchemaError(current, MIGRATIONS.length);
  }
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v] as string);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
