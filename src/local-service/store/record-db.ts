/** Opens the service's store file: pragmas, the sole-writer lock, tables, schema version and indexes. */
import { Database } from '../../sqlite';
import { indexSql, MESSAGE_ID_INDEX_SQL, MESSAGE_INDEXES, SCHEMA_VERSION, TABLES_SQL } from './schema';
import { claimSoleWriter } from './sole-writer';

/**
 * How much memory the store may spend on speed. `fast` (the simulator's store, up to millions of records
 * read by many filters): a 64 MB page cache and the file mapped up to 2 GiB (address space, not memory;
 * SQLite caps it near 2 GiB), whose touched pages count in the process's RSS. `lean` (own-nodes mode: one
 * writer, a few readers of recent pages): an 8 MB cache and no mapping.
 */
export type StoreMemory = 'fast' | 'lean';
const PRAGMAS: Record<StoreMemory, { cacheKb: number; mmapBytes: number }> = {
  fast: { cacheKb: 65_536, mmapBytes: 2 * 1024 ** 3 },
  lean: { cacheKb: 8_192, mmapBytes: 0 },
};

export function openRecordDb(path: string, memory: StoreMemory = 'fast'): Database {
  const { cacheKb, mmapBytes } = PRAGMAS[memory];
  const db = new Database(path);
  // Records are ~1.6 KB of JSON: 8 KB pages hold five of them (4 KB pages waste a fifth). New files only.
  db.pragma('page_size = 8192');
  claimSoleWriter(db, path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`cache_size = -${cacheKb}`);
  // Read-mostly store: pages are read straight from the mapped file, without a read() call and a
  // copy into SQLite's cache per page (a 100-record page of a filtered query touches ~100 pages).
  db.pragma(`mmap_size = ${mmapBytes}`);
  db.pragma('temp_store = MEMORY');
  db.pragma('busy_timeout = 5000');
  db.exec(TABLES_SQL);
  checkVersion(db, path);
  createIndexes(db);
  dropUnreadablePositions(db);
  return db;
}

/**
 * A record stored before positions were bounded (record-keys.ts) with a far-future time (a node's
 * lying block, a millisecond timestamp) has a position past 2^53 that no read survives: every page that
 * met it failed. Such rows are let go of at open (a range of the primary key: nothing to scan); the
 * chain indexer rebuilds what its events still support (chain-indexer.ts).
 */
function dropUnreadablePositions(db: Database): void {
  db.exec(`DELETE FROM messages WHERE pos > ${Number.MAX_SAFE_INTEGER} OR pos < 0`);
}

function checkVersion(db: Database, path: string): void {
  const v = db.prepare<[], string>("SELECT value FROM meta WHERE key = 'schemaVersion'").pluck().get();
  if (v === undefined) db.prepare("INSERT INTO meta (key, value) VALUES ('schemaVersion', ?)").run(String(SCHEMA_VERSION));
  else if (v !== String(SCHEMA_VERSION)) {
    db.close();
    throw new Error(`Database ${path} has schema version ${v}; this service needs ${SCHEMA_VERSION}. Use another --db file or delete this one.`);
  }
}

export function createIndexes(db: Database): void {
  db.exec(MESSAGE_ID_INDEX_SQL);
  for (const ix of MESSAGE_INDEXES) db.exec(indexSql(ix));
}

/** Drops every message index (a bulk load into an empty store builds them once at the end). */
export function dropIndexes(db: Database): void {
  db.exec(['messages_by_id', ...MESSAGE_INDEXES.map((ix) => ix.name)].map((n) => `DROP INDEX IF EXISTS ${n};`).join('\n'));
}
