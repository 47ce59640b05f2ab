/**
 * The service's SQLite store (node:sqlite through src/sqlite, WAL, one file): message records kept as raw JSON, with
 * dictionary tables for chains, routes and addresses, and the indexes of ./schema.ts.
 */
import { randomBytes } from 'node:crypto';
import { Database, type Statement } from '../../sqlite';
import { chainByBlockchainId, chainByEvmChainId } from '../../shared/chains';
import type { ChainRef } from '../../shared/validators';
import { planScans, type Conjunction } from './planner';
import { recordKeys } from './record-keys';
import { indexSql, MESSAGE_ID_INDEX_SQL, MESSAGE_INDEXES, NET_CODES, POS_PER_SECOND, SCHEMA_VERSION, TABLES_SQL, type IndexSpec } from './schema';
import { claimSoleWriter } from './sole-writer';

export interface StoreQuery {
  network?: 'mainnet' | 'fuji';
  source?: ChainRef;
  destination?: ChainRef;
  /** cb58 ID of either chain. */
  blockchainId?: string;
  from?: string;
  to?: string;
  /** Sender OR recipient (the address operation). */
  address?: string;
}

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

interface PagePositions {
  positions: number[];
  hasMore: boolean;
}

interface Route {
  id: number;
  src: number;
  dst: number;
  net: number;
}
interface ChainRow {
  id: number;
  blockchainId: string;
  evmChainId: string;
}

const NO_CURSOR = Number.MAX_SAFE_INTEGER;
/** Records per piece: a piece stays a small string that dies young, not a large object or an external buffer. */
const PIECE_RECORDS = 16;
/** Upper bound of the file mapping (address space, not memory; SQLite caps it near 2 GiB). Pages past it are read as usual. */
const MMAP_BYTES = 2 * 1024 ** 3;
/**
 * The records at the given positions (a JSON array, newest first), joined with commas into one string.
 * The subquery yields them in that order without a sort step; SQLite does not promise that
 * group_concat keeps it, so the positions are concatenated alongside (same rows, same order) and
 * checked, with an aggregate ORDER BY (which sorts the whole records, about twice the cost) as fallback.
 */
const PAGE_JSON_SQL =
  "SELECT group_concat(pos) AS positions, group_concat(raw, ',') AS json FROM (SELECT pos, raw FROM messages WHERE pos IN (SELECT value FROM json_each(?)) ORDER BY pos DESC)";
const PAGE_JSON_SORTED_SQL = "SELECT group_concat(raw, ',' ORDER BY pos DESC) FROM messages WHERE pos IN (SELECT value FROM json_each(?))";

function networkOf(blockchainId: string, evmChainId: string): number | undefined {
  const c = chainByBlockchainId(blockchainId) ?? chainByEvmChainId(evmChainId);
  return c ? NET_CODES[c.network] : undefined;
}

export class RecordStore {
  readonly path: string;
  private readonly db: Database;
  private readonly chains: ChainRow[] = [];
  private readonly chainIds = new Map<string, number>();
  private readonly routes: Route[] = [];
  /** Route ID -> position in `routes`. */
  private readonly routeIndex = new Map<number, number>();
  private readonly routeIds = new Map<string, number>();
  private readonly addressIds = new Map<string, number>();
  private readonly scanStatements = new Map<string, Statement>();
  private total: number;
  /** True during a bulk load into an empty store: every record is new, no lookup by ID. */
  private fresh = false;
  private readonly stmt;

  constructor(path: string) {
    this.path = path;
    this.db = new Database(path);
    // Records are ~1.6 KB of JSON: 8 KB pages hold five of them (4 KB pages waste a fifth). New files only.
    this.db.pragma('page_size = 8192');
    claimSoleWriter(this.db, path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('cache_size = -65536');
    // Read-mostly store: pages are read straight from the mapped file, without a read() call and a
    // copy into SQLite's cache per page (a 100-record page of a filtered query touches ~100 pages).
    this.db.pragma(`mmap_size = ${MMAP_BYTES}`);
    this.db.pragma('temp_store = MEMORY');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(TABLES_SQL);
    this.checkVersion();
    this.createIndexes();
    this.stmt = {
      getMeta: this.db.prepare<[string], string>('SELECT value FROM meta WHERE key = ?').pluck(),
      setMeta: this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'),
      insertChain: this.db.prepare('INSERT INTO chains (blockchain_id, evm_chain_id) VALUES (?, ?)'),
      insertRoute: this.db.prepare('INSERT INTO routes (src, dst, net) VALUES (?, ?, ?)'),
      findAddress: this.db.prepare<[string], number>('SELECT id FROM addresses WHERE address = ?').pluck(),
      insertAddress: this.db.prepare('INSERT INTO addresses (address) VALUES (?)'),
      findMessage: this.db.prepare<[string], number>('SELECT pos FROM messages WHERE message_id = ?').pluck(),
      maxPosIn: this.db.prepare<[number, number], number | null>('SELECT max(pos) FROM messages WHERE pos >= ? AND pos < ?').pluck(),
      insertMessage: this.db.prepare('INSERT INTO messages (pos, message_id, net, route, frm, too, status, raw) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
      updateMessage: this.db.prepare('UPDATE messages SET net = ?, route = ?, frm = ?, too = ?, status = ?, raw = ? WHERE pos = ?'),
      deleteMessage: this.db.prepare('DELETE FROM messages WHERE pos = ?'),
      rawAt: this.db.prepare<[number], string>('SELECT raw FROM messages WHERE pos = ?').pluck(),
      rawById: this.db.prepare<[string], string>('SELECT raw FROM messages WHERE message_id = ?').pluck(),
      // SQLite joins the records of a page (16 per call): no JS string per record, no join in JS.
      jsonAt: this.db.prepare<[string], { positions: string | null; json: string | null }>(PAGE_JSON_SQL),
      jsonAtSorted: this.db.prepare<[string], string | null>(PAGE_JSON_SORTED_SQL).pluck(),
    };
    this.total = 0;
    this.loadDictionaries();
  }

  /** (Re)reads the in-memory copies of the dictionary tables, e.g. after a rolled-back transaction. */
  private loadDictionaries(): void {
    this.chains.length = 0;
    this.chainIds.clear();
    this.routes.length = 0;
    this.routeIds.clear();
    this.routeIndex.clear();
    this.addressIds.clear();
    for (const c of this.db.prepare<[], ChainRow>('SELECT id, blockchain_id AS blockchainId, evm_chain_id AS evmChainId FROM chains').all()) this.addChain(c);
    for (const r of this.db.prepare<[], Route>('SELECT id, src, dst, net FROM routes').all()) this.addRoute(r);
    this.total = this.db.prepare<[], number>('SELECT count(*) FROM messages').pluck().get() ?? 0;
  }

  private checkVersion(): void {
    const v = this.db.prepare<[], string>("SELECT value FROM meta WHERE key = 'schemaVersion'").pluck().get();
    if (v === undefined) this.db.prepare("INSERT INTO meta (key, value) VALUES ('schemaVersion', ?)").run(String(SCHEMA_VERSION));
    else if (v !== String(SCHEMA_VERSION)) {
      this.db.close();
      throw new Error(`Database ${this.path} has schema version ${v}; this service needs ${SCHEMA_VERSION}. Use another --db file or delete this one.`);
    }
  }

  private createIndexes(): void {
    this.db.exec(MESSAGE_ID_INDEX_SQL);
    for (const ix of MESSAGE_INDEXES) this.db.exec(indexSql(ix));
  }

  /**
   * Runs a large load. Into an empty store, indexes are dropped first and built once at the end
   * (sorting beats a million incremental inserts); records must then have distinct message IDs.
   */
  bulkLoad<T>(fn: () => T): T {
    if (this.total > 0) return fn();
    this.db.exec(['messages_by_id', ...MESSAGE_INDEXES.map((ix) => ix.name)].map((n) => `DROP INDEX IF EXISTS ${n};`).join('\n'));
    this.fresh = true;
    try {
      return fn();
    } finally {
      this.fresh = false;
      this.createIndexes();
    }
  }

  getMeta(key: string): string | undefined {
    return this.stmt.getMeta.get(key);
  }

  setMeta(key: string, value: string): void {
    this.stmt.setMeta.run(key, value);
  }

  /** A per-database secret (for signing page tokens): created once, kept across restarts. */
  secret(name: string): Buffer {
    const existing = this.getMeta(name);
    if (existing) return Buffer.from(existing, 'hex');
    const fresh = randomBytes(32);
    this.setMeta(name, fresh.toString('hex'));
    return fresh;
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
      this.loadDictionaries(); // the rollback undid rows the caches already knew
      throw e;
    }
  }

  /**
   * Inserts a record, or replaces the stored record with the same messageId. An update keeps the
   * record's sort position (so a walk in progress never sees it twice) unless its sort timestamp
   * changed, e.g. a source transaction became known: then it moves, to keep newest-first order true.
   */
  upsert(record: unknown): void {
    this.transaction(() => this.write(record));
  }

  upsertMany(records: readonly unknown[]): void {
    this.transaction(() => {
      for (const r of records) this.write(r);
    });
  }

  private write(record: unknown): void {
    const k = recordKeys(record);
    const raw = JSON.stringify(record);
    const route = this.routeId(k.source, k.destination);
    const net = this.routes[this.routeIndex.get(route)!]!.net;
    const frm = this.addressId(k.from);
    const too = this.addressId(k.to);
    const pos = this.fresh ? undefined : this.stmt.findMessage.get(k.messageId);
    if (pos !== undefined && Math.floor(pos / POS_PER_SECOND) === k.timestamp) {
      this.stmt.updateMessage.run(net, route, frm, too, k.status, raw, pos);
      return;
    }
    if (pos !== undefined) {
      this.stmt.deleteMessage.run(pos);
      this.total--;
    }
    this.stmt.insertMessage.run(this.nextPos(k.timestamp), k.messageId, net, route, frm, too, k.status, raw);
    this.total++;
  }

  get(messageId: string): Record<string, unknown> | undefined {
    const raw = this.stmt.rawById.get(messageId);
    return raw === undefined ? undefined : (JSON.parse(raw) as Record<string, unknown>);
  }

  /** One page, newest first, of messages older than `before` (a position from an earlier page). */
  page(q: StoreQuery, before: number | undefined, limit: number): StorePage {
    const { positions, hasMore } = this.find(q, before, limit);
    return { records: positions.map((p) => this.stmt.rawAt.get(p)!), positions, hasMore };
  }

  /** The same page as `page`, with its records read and joined by SQLite, a few pieces per page. */
  pageJson(q: StoreQuery, before: number | undefined, limit: number): StoreJsonPage {
    const { positions, hasMore } = this.find(q, before, limit);
    return { json: this.joinedRecords(positions), count: positions.length, last: positions[positions.length - 1], hasMore };
  }

  private joinedRecords(positions: readonly number[]): string[] {
    const pieces: string[] = [];
    for (let i = 0; i < positions.length; i += PIECE_RECORDS) pieces.push(this.joinedPiece(positions.slice(i, i + PIECE_RECORDS)));
    return pieces;
  }

  private joinedPiece(positions: readonly number[]): string {
    const list = JSON.stringify(positions);
    const row = this.stmt.jsonAt.get(list);
    if (row?.json && row.positions === positions.join(',')) return row.json;
    return this.stmt.jsonAtSorted.get(list) ?? '';
  }

  /**
   * The positions of one page, from the covering indexes only (no record is read here). One range
   * scan for most queries; several (routes, networks, sender/recipient) are merged in order.
   */
  private find(q: StoreQuery, before: number | undefined, limit: number): PagePositions {
    const cursor = before ?? NO_CURSOR;
    const base = this.conjunction(q);
    let branches: (Conjunction | null)[] = [base];
    if (q.address !== undefined) {
      const a = this.knownAddress(q.address);
      branches = a === undefined || !base ? [] : [{ ...base, frm: a }, { ...base, too: a }];
    }
    const plans = branches.flatMap((b) => {
      const plan = b ? planScans(b, { routes: this.routes }, MESSAGE_INDEXES) : null;
      return plan ? [plan] : [];
    });
    let positions: number[];
    if (plans.length === 1 && plans[0]!.scans.length === 1) {
      const plan = plans[0]!;
      positions = this.scanStatement(plan.index).all(...plan.scans[0]!, cursor, limit + 1) as number[];
    } else {
      const found = new Set<number>();
      for (const plan of plans) {
        for (const values of plan.scans) {
          for (const p of this.scanStatement(plan.index).all(...values, cursor, limit + 1) as number[]) found.add(p);
        }
      }
      positions = [...found].sort((a, b) => b - a).slice(0, limit + 1);
    }
    const hasMore = positions.length > limit;
    if (hasMore) positions.pop();
    return { positions, hasMore };
  }

  /** The query plan SQLite uses to read a page's records by position (tests check it). */
  explainPageJson(sorted = false): string[] {
    return this.db.prepare<[string], { detail: string }>(`EXPLAIN QUERY PLAN ${sorted ? PAGE_JSON_SORTED_SQL : PAGE_JSON_SQL}`).all('[1,2]').map((r) => r.detail);
  }

  /** The query plan SQLite uses for an index scan (tests check that no sort step is needed). */
  explainScan(index: IndexSpec): string[] {
    const sql = this.scanSql(index);
    const args = [...index.cols.map(() => 1), 1, 1];
    return this.db.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).all(...args).map((r) => r.detail);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** The filter as equality constraints on dictionary IDs; null when it cannot match anything. */
  private conjunction(q: StoreQuery): Conjunction | null {
    const c: Conjunction = {};
    const net = q.network ? NET_CODES[q.network] : undefined;
    if (q.source || q.destination || q.blockchainId) {
      const src = q.source ? this.chainsMatching(q.source) : null;
      const dst = q.destination ? this.chainsMatching(q.destination) : null;
      const either = q.blockchainId ? this.chainsMatching({ kind: 'blockchainId', value: q.blockchainId }) : null;
      c.routes = this.routes
        .filter((r) => (net === undefined || r.net === net) && (!src || src.has(r.src)) && (!dst || dst.has(r.dst)) && (!either || either.has(r.src) || either.has(r.dst)))
        .map((r) => r.id);
    } else if (net !== undefined) c.net = [net];
    if (q.from !== undefined) {
      const id = this.knownAddress(q.from);
      if (id === undefined) return null;
      c.frm = id;
    }
    if (q.to !== undefined) {
      const id = this.knownAddress(q.to);
      if (id === undefined) return null;
      c.too = id;
    }
    return c;
  }

  private chainsMatching(ref: ChainRef): Set<number> {
    return new Set(this.chains.filter((c) => (ref.kind === 'blockchainId' ? c.blockchainId === ref.value : c.evmChainId === ref.value)).map((c) => c.id));
  }

  private scanSql(index: IndexSpec | null): string {
    if (!index) return 'SELECT pos FROM messages WHERE pos < ? ORDER BY pos DESC LIMIT ?';
    const where = index.cols.map((c) => `${c} = ?`).join(' AND ');
    return `SELECT pos FROM messages INDEXED BY ${index.name} WHERE ${where} AND pos < ? ORDER BY pos DESC LIMIT ?`;
  }

  private scanStatement(index: IndexSpec | null): Statement {
    const key = index?.name ?? 'rowid';
    let s = this.scanStatements.get(key);
    if (!s) {
      s = this.db.prepare(this.scanSql(index)).pluck();
      this.scanStatements.set(key, s);
    }
    return s;
  }

  private nextPos(timestamp: number): number {
    const start = timestamp * POS_PER_SECOND;
    const max = this.stmt.maxPosIn.get(start, start + POS_PER_SECOND);
    return max === null || max === undefined ? start : max + 1;
  }

  private addChain(c: ChainRow): void {
    this.chains.push(c);
    this.chainIds.set(`${c.blockchainId}|${c.evmChainId}`, c.id);
  }

  private addRoute(r: Route): void {
    this.routeIndex.set(r.id, this.routes.length);
    this.routes.push(r);
    this.routeIds.set(`${r.src}|${r.dst}`, r.id);
  }

  private chainId(c: { blockchainId: string; evmChainId: string }): number {
    const key = `${c.blockchainId}|${c.evmChainId}`;
    let id = this.chainIds.get(key);
    if (id === undefined) {
      id = Number(this.stmt.insertChain.run(c.blockchainId, c.evmChainId).lastInsertRowid);
      this.addChain({ id, ...c });
    }
    return id;
  }

  private routeId(src: { blockchainId: string; evmChainId: string }, dst: { blockchainId: string; evmChainId: string }): number {
    const s = this.chainId(src);
    const d = this.chainId(dst);
    let id = this.routeIds.get(`${s}|${d}`);
    if (id === undefined) {
      // A message belongs to the network of its chains: the source's, else the destination's.
      const net = networkOf(src.blockchainId, src.evmChainId) ?? networkOf(dst.blockchainId, dst.evmChainId) ?? NET_CODES.unknown;
      id = Number(this.stmt.insertRoute.run(s, d, net).lastInsertRowid);
      this.addRoute({ id, src: s, dst: d, net });
    }
    return id;
  }

  private knownAddress(address: string): number | undefined {
    const lower = address.toLowerCase();
    const cached = this.addressIds.get(lower);
    if (cached !== undefined) return cached;
    const id = this.stmt.findAddress.get(lower);
    if (id !== undefined) this.addressIds.set(lower, id);
    return id;
  }

  private addressId(address: string): number {
    const known = this.knownAddress(address);
    if (known !== undefined) return known;
    const id = Number(this.stmt.insertAddress.run(address).lastInsertRowid);
    this.addressIds.set(address, id);
    return id;
  }
}
