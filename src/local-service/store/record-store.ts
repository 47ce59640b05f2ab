/**
 * The service's SQLite store (node:sqlite through src/sqlite, WAL, one file): message records kept as
 * raw JSON, with dictionary tables for chains, routes and addresses, and the indexes of ./schema.ts.
 * This class puts the pieces together: record-db.ts opens the file, dictionaries.ts, record-writer.ts,
 * page-finder.ts and record-reader.ts do the work, meta.ts keeps small values.
 */
import type { Database } from '../../sqlite';
import { Dictionaries } from './dictionaries';
import { Meta } from './meta';
import { PageFinder, type StoreQuery } from './page-finder';
import { createIndexes, dropIndexes, openRecordDb, type StoreMemory } from './record-db';
import { RecordReader } from './record-reader';
import { RecordWriter } from './record-writer';
import type { IndexSpec } from './schema';

export type { StoreQuery } from './page-finder';

export interface StorePage {
  /** Raw record JSON, newest first. */
  records: string[];
  /** Sort key of each record (the cursor is the last one). */
  positions: number[];
  hasMore: boolean;
}

/** One page as the HTTP layer sends it: the records already joined by SQLite, a few per piece. */
export interface StoreJsonPage {
  /** The page's raw records, newest first, in a few comma-joined pieces (join them with commas for the inside of a JSON array). */
  json: string[];
  count: number;
  /** Sort key of the last record (the next cursor); undefined for an empty page. */
  last: number | undefined;
  hasMore: boolean;
}

export class RecordStore {
  readonly path: string;
  private readonly db: Database;
  private readonly dictionaries: Dictionaries;
  private readonly meta: Meta;
  private readonly writer: RecordWriter;
  private readonly reader: RecordReader;
  private readonly finder: PageFinder;
  private readonly countStmt;
  private total: number;
  /** True during a bulk load into an empty store: every record is new, no lookup by ID. */
  private fresh = false;

  /**
   * `looseOrder`: records of the same second are listed in an arbitrary order (by message ID), not the order they arrived in.
   * `chainNetworks`: the network of chains the registry does not know (blockchain ID -> network), e.g. one's own L1s.
   * `memory`: what the store may spend on speed (record-db.ts).
   */
  constructor(path: string, options: { looseOrder?: boolean; chainNetworks?: ReadonlyMap<string, 'mainnet' | 'fuji'>; memory?: StoreMemory } = {}) {
    this.path = path;
    this.db = openRecordDb(path, options.memory);
    this.meta = new Meta(this.db);
    this.dictionaries = new Dictionaries(this.db, options.chainNetworks);
    this.writer = new RecordWriter(this.db, this.dictionaries, options.looseOrder ?? false);
    this.reader = new RecordReader(this.db);
    this.finder = new PageFinder(this.db, this.dictionaries);
    this.countStmt = this.db.prepare<[], number>('SELECT count(*) FROM messages').pluck();
    this.total = this.countStmt.get() ?? 0;
  }

  /**
   * Runs a large load. Into an empty store, indexes are dropped first and built once at the end
   * (sorting beats a million incremental inserts); records must then have distinct message IDs.
   */
  bulkLoad<T>(fn: () => T): T {
    if (this.total > 0) return fn();
    dropIndexes(this.db);
    this.fresh = true;
    try {
      return fn();
    } finally {
      this.fresh = false;
      createIndexes(this.db);
    }
  }

  getMeta(key: string): string | undefined {
    return this.meta.get(key);
  }

  setMeta(key: string, value: string): void {
    this.meta.set(key, value);
  }

  /** A per-database secret (for signing page tokens): created once, kept across restarts. */
  secret(name: string): Buffer {
    return this.meta.secret(name);
  }

  count(): number {
    return this.total;
  }

  /** Runs `fn` in one transaction (many writes become one commit). */
  transaction<T>(fn: () => T): T {
    if (this.db.inTransaction) return fn();
    try {
      return this.db.transaction(fn)();
    } catch (e) {
      // The rollback undid rows the in-memory copies already knew.
      this.dictionaries.reload();
      this.total = this.countStmt.get() ?? 0;
      throw e;
    }
  }

  /** Inserts a record, or replaces the stored record with the same messageId (see RecordWriter.write). */
  upsert(record: unknown): void {
    this.transaction(() => this.write(record));
  }

  upsertMany(records: readonly unknown[]): void {
    this.transaction(() => {
      for (const r of records) this.write(r);
    });
  }

  private write(record: unknown): void {
    if (this.writer.write(record, this.fresh) === 'added') this.total++;
  }

  /** Deletes a record (a message whose only events were undone by a reorg); false when there was none. */
  remove(messageId: string): boolean {
    return this.transaction(() => {
      const removed = this.writer.remove(messageId);
      if (removed) this.total--;
      return removed;
    });
  }

  /**
   * Gives a component of the service (the chain indexer) the store's own connection for its tables,
   * so its writes and the records' writes share one transaction.
   */
  attach<T>(make: (db: Database) => T): T {
    return make(this.db);
  }

  get(messageId: string): Record<string, unknown> | undefined {
    return this.reader.byId(messageId);
  }

  /** One page, newest first, of messages older than `before` (a position from an earlier page). */
  page(q: StoreQuery, before: number | undefined, limit: number): StorePage {
    const { positions, hasMore } = this.finder.find(q, before, limit);
    return { records: this.reader.rawAt(positions), positions, hasMore };
  }

  /** The same page as `page`, with its records read and joined by SQLite, a few pieces per page. */
  pageJson(q: StoreQuery, before: number | undefined, limit: number): StoreJsonPage {
    const { positions, hasMore } = this.finder.find(q, before, limit);
    return { json: this.reader.joined(positions), count: positions.length, last: positions[positions.length - 1], hasMore };
  }

  /** The query plan SQLite uses to read a page's records by position (tests check it). */
  explainPageJson(sorted = false): string[] {
    return this.reader.explainJoined(sorted);
  }

  /** The query plan SQLite uses for an index scan (tests check that no sort step is needed). */
  explainScan(index: IndexSpec): string[] {
    return this.finder.explainScan(index);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
