import type { Statement } from '../../sqlite';
import type { CachedMessage, CachePage, CacheSummary, Transition, TransitionKind } from '../../shared/contract';
import { chainLabel } from '../../shared/chains';
import { parseMessage, type TeleporterMessage } from '../../shared/messages';
import type { Network } from '../../shared/validators';
import type { Db } from './database';
import { searchMatchOf } from './search-match';
import { isFeedKey, watcherKey, watcherRef } from './watcher-key';

/** The tracking state of one message, as transitions are computed from it. */
export interface MessageState {
  rowid: number;
  messageId: string;
  network: Network;
  status: string;
  receiptDelivered: boolean;
  tracked: boolean;
  pendingSince: number | null;
  stuckFired: boolean;
  firstSeenAt: number;
}

export interface MessageRow {
  messageId: string;
  network: Network;
  status: string;
  receiptDelivered: boolean;
  from: string;
  to: string;
  sourceChain: string;
  destinationChain: string;
  sourceTs: number | null;
  destinationTs: number | null;
  raw: string;
  searchText: string;
  seenAt: number;
  tracked: boolean;
  pendingSince: number | null;
  stuckFired: boolean;
}

interface StateRow {
  rowid: number;
  message_id: string;
  network: string;
  status: string;
  receipt_delivered: number;
  tracked: number;
  pending_since: number | null;
  stuck_fired: number;
  first_seen_at: number;
}

interface TransitionRow {
  id: number;
  message_id: string;
  kind: string;
  from_status: string | null;
  to_status: string;
  at: number;
  network: string;
  source_chain: string;
  destination_chain: string;
  watchers: string;
}

export interface TrackedMessage {
  messageId: string;
  network: Network;
  status: string;
  receiptDelivered: boolean;
  from: string;
  to: string;
  sourceTs: number | null;
  /** Where the API sorts it (source timestamp, else destination timestamp), seconds. */
  sortTs: number | null;
  pendingSince: number | null;
  stuckFired: boolean;
  lastSeenAt: number;
}

/** Sort keys per second of timestamp (see MessageCache.insert). */
const ROWS_PER_SECOND = 1_000_000;
/** searchCache counts matches up to this many; more are reported as this number with totalCapped. */
export const SEARCH_COUNT_CAP = 1_000;

/** Lower-cased text the search index matches against: IDs, addresses, chains (IDs and names), hashes. */
export function searchTextOf(m: TeleporterMessage, raw: Record<string, unknown>): string {
  const s = (v: unknown) => (typeof v === 'string' ? v : '');
  const src = raw.sourceTransaction as { txHash?: unknown } | undefined;
  const dst = raw.destinationTransaction as { txHash?: unknown } | undefined;
  const parts = [
    m.messageId,
    s(raw.from),
    s(raw.to),
    s(raw.sourceBlockchainId),
    s(raw.destinationBlockchainId),
    s(raw.sourceEvmChainId),
    s(raw.destinationEvmChainId),
    chainLabel(s(raw.sourceBlockchainId) || undefined),
    chainLabel(s(raw.destinationBlockchainId) || undefined),
    s(src?.txHash),
    s(dst?.txHash),
  ];
  return parts.filter(Boolean).join(' ').toLowerCase();
}

export interface CacheQuery {
  text?: string;
  status?: string;
  address?: string;
  network?: Network;
  limit?: number;
  offset?: number;
}

/** Messages, their watchers, the transition log and the notification outbox. */
export class MessageCache {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      state: db.prepare('SELECT rowid, message_id, network, status, receipt_delivered, tracked, pending_since, stuck_fired, first_seen_at FROM messages WHERE message_id = ?'),
      // Compared inside SQLite: most observations repeat the stored record, and reading it back into JS
      // for every message of every page was most of a poll cycle's garbage.
      sameRaw: db.prepare('SELECT raw = ? FROM messages WHERE rowid = ?').pluck(),
      maxInSecond: db.prepare('SELECT MAX(rowid) AS r FROM messages WHERE rowid BETWEEN ? AND ?'),
      insert: db.prepare(
        `INSERT INTO messages (rowid, message_id, network, status, receipt_delivered, from_addr, to_addr, source_chain, destination_chain,
           source_ts, destination_ts, raw, first_seen_at, last_seen_at, tracked, pending_since, stuck_fired)
         VALUES (@rowid, @messageId, @network, @status, @rd, @from, @to, @sourceChain, @destinationChain, @sourceTs, @destinationTs, @raw,
           @seenAt, @seenAt, @tracked, @pendingSince, @stuckFired)`,
      ),
      update: db.prepare(
        `UPDATE messages SET status = @status, receipt_delivered = @rd, raw = @raw, destination_ts = @destinationTs,
           source_ts = COALESCE(@sourceTs, source_ts), last_seen_at = @seenAt, tracked = @tracked, pending_since = @pendingSince,
           stuck_fired = @stuckFired WHERE message_id = @messageId`,
      ),
      touch: db.prepare('UPDATE messages SET last_seen_at = ? WHERE message_id = ?'),
      exists: db.prepare('SELECT 1 FROM messages WHERE message_id = ?').pluck(),
      ftsInsert: db.prepare('INSERT INTO messages_fts (rowid, text) VALUES (?, ?)'),
      ftsDelete: db.prepare('DELETE FROM messages_fts WHERE rowid = ?'),
      prefixInsert: db.prepare('INSERT INTO messages_prefix (rowid, text) VALUES (?, ?)'),
      prefixDelete: db.prepare('DELETE FROM messages_prefix WHERE rowid = ?'),
      addWatcher: db.prepare('INSERT OR IGNORE INTO message_watchers (message_id, watcher, added_at, baseline) VALUES (?, ?, ?, ?)'),
      watchers: db.prepare('SELECT watcher, baseline FROM message_watchers WHERE message_id = ?'),
      insertTransition: db.prepare(
        `INSERT OR IGNORE INTO transitions (message_id, kind, from_status, to_status, at, network, source_chain, destination_chain, watchers)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      setStuck: db.prepare('UPDATE messages SET stuck_fired = 1 WHERE message_id = ?'),
      untrack: db.prepare('UPDATE messages SET tracked = 0 WHERE message_id = ?'),
      tracked: db.prepare(
        'SELECT message_id, network, status, receipt_delivered, from_addr, to_addr, source_ts, destination_ts, pending_since, stuck_fired, last_seen_at FROM messages WHERE tracked = 1',
      ),
      sweepable: db.prepare(
        `SELECT message_id, network, status, receipt_delivered, from_addr, to_addr, source_ts, destination_ts, pending_since, stuck_fired, last_seen_at
         FROM messages WHERE tracked = 1 AND (
           (status = 'pending' AND stuck_fired = 0 AND COALESCE(pending_since, last_seen_at) <= @stuckBefore)
           OR (status <> 'pending' AND receipt_delivered = 0 AND COALESCE(pending_since, last_seen_at) <= @receiptBefore))`,
      ),
      trackedCount: db.prepare('SELECT COUNT(*) AS n FROM messages WHERE tracked = 1').pluck(),
      countSince: db
        .prepare(
          `SELECT COUNT(*) AS n FROM message_watchers mw JOIN messages m ON m.message_id = mw.message_id
           WHERE mw.watcher = ? AND COALESCE(m.source_ts, m.destination_ts) >= ?`,
        )
        .pluck(),
      get: db.prepare('SELECT * FROM messages WHERE message_id = ?'),
    };
  }

  private statements = new Map<string, Statement<unknown[]>>();

  /** Search builds a handful of distinct SQL shapes: prepare each once. */
  private cached(sql: string): Statement<unknown[]> {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare<unknown[]>(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  state(messageId: string): MessageState | null {
    const r = this.stmts.state.get(messageId) as StateRow | undefined;
    if (!r) return null;
    return {
      rowid: r.rowid,
      messageId: r.message_id,
      network: r.network as Network,
      status: r.status,
      receiptDelivered: r.receipt_delivered === 1,
      tracked: r.tracked === 1,
      pendingSince: r.pending_since,
      stuckFired: r.stuck_fired === 1,
      firstSeenAt: r.first_seen_at,
    };
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
  has(messageId: string): boolean {
    return this.stmts.exists.get(messageId) !== undefined;
  }

  insert(row: MessageRow): void {
    const second = row.sourceTs ?? row.destinationTs ?? Math.floor(row.seenAt / 1000);
    const lo = second * ROWS_PER_SECOND;
    const max = (this.stmts.maxInSecond.get(lo, lo + ROWS_PER_SECOND - 1) as { r: number | null }).r;
    const rowid = max === null ? lo : max + 1;
    this.stmts.insert.run({ ...bind(row), rowid });
    this.index(rowid, row.searchText);
  }

  private index(rowid: number, text: string): void {
    this.stmts.ftsInsert.run(rowid, text);
    this.stmts.prefixInsert.run(rowid, text);
  }

  private unindex(rowid: number): void {
    this.stmts.ftsDelete.run(rowid);
    this.stmts.prefixDelete.run(rowid);
  }

  update(rowid: number, row: MessageRow): void {
    this.stmts.update.run(bind(row));
    this.unindex(rowid);
    this.index(rowid, row.searchText);
  }

  touch(messageId: string, at: number): void {
    this.stmts.touch.run(at, messageId);
  }

  addWatcher(messageId: string, watcher: string, at: number, baseline: boolean): void {
    this.stmts.addWatcher.run(messageId, watcher, at, baseline ? 1 : 0);
  }

  watchers(messageId: string): { watcher: string; baseline: boolean }[] {
    return (this.stmts.watchers.all(messageId) as { watcher: string; baseline: number }[]).map((r) => ({ watcher: r.watcher, baseline: r.baseline === 1 }));
  }

  /** Inserts a transition unless this (message, kind) was already logged; returns its id or null. */
  insertTransition(t: Omit<Transition, 'id'>): number | null {
    const r = this.stmts.insertTransition.run(t.messageId, t.kind, t.fromStatus, t.toStatus, t.at, t.network, t.sourceBlockchainId, t.destinationBlockchainId, JSON.stringify(t.watchers.map(watcherKey)));
    return r.changes > 0 ? Number(r.lastInsertRowid) : null;
  }

  markStuck(messageId: string): void {
    this.stmts.setStuck.run(messageId);
  }

  untrack(messageId: string): void {
    this.stmts.untrack.run(messageId);
  }

  tracked(): TrackedMessage[] {
    return (this.stmts.tracked.all() as TrackedRow[]).map(toTracked);
  }

  /**
   * Tracked messages that pass `keep`, read one row at a time: a poll cycle wants only the few due for
   * a re-check, and holding every tracked row until filtering kept thousands of objects alive.
   */
  trackedWhere(keep: (t: TrackedMessage) => boolean): TrackedMessage[] {
    const out: TrackedMessage[] = [];
    for (const r of this.stmts.tracked.iterate() as IterableIterator<TrackedRow>) {
      const t = toTracked(r);
      if (keep(t)) out.push(t);
    }
    return out;
  }

  /** Tracked messages that may be stuck (pending since before `stuckBefore`) or past their receipt wait. */
  sweepable(stuckBefore: number, receiptBefore: number): TrackedMessage[] {
    return (this.stmts.sweepable.all({ stuckBefore, receiptBefore }) as TrackedRow[]).map(toTracked);
  }

  /** Cached messages of a watcher at or after a sort timestamp: how deep its address listing must page. */
  countSince(watcher: string, ts: number): number {
    return this.stmts.countSince.get(watcher, ts) as number;
  }

  trackedCount(): number {
    return this.stmts.trackedCount.get() as number;
  }

  get(messageId: string): CachedMessage | null {
    const row = this.stmts.get.get(messageId) as CacheRow | undefined;
    return row ? this.toCached(row) : null;
  }

  /**
   * Search over the local cache, newest first. Text of 3+ characters uses the trigram index; shorter
   * text scans the stored search text. Both walk the time-ordered primary key backwards and stop at the
   * page, and the total is counted up to SEARCH_COUNT_CAP (beyond it `totalCapped` is set).
   */
  search(q: CacheQuery): CachePage {
    const where: string[] = [];
    const params: unknown[] = [];
    const match = searchMatchOf(q.text);
    if (match.kind === 'none') return { items: [], total: 0 };
    const index = match.kind === 'match' ? match.index : null;
    const ftsParams: unknown[] = match.kind === 'match' ? [match.query] : [];
    if (q.status) {
      where.push('m.status = ?');
      params.push(q.status);
    }
    if (q.network) {
      where.push(q.network === 'mainnet' ? "m.network = 'mainnet'" : "m.network IN ('fuji', 'testnet')");
    }
    if (q.address) {
      where.push('m.message_id IN (SELECT message_id FROM message_watchers WHERE watcher = ?)');
      params.push(q.address);
    }
    // A text-only search reads the index alone (its rowids are the messages' rowids): joining the
    // table just to filter nothing doubled the cost of a keystroke. With filters, CROSS JOIN keeps the
    // text index as the outer loop: SQLite 3.51 (node:sqlite) otherwise walks the status index and
    // runs the MATCH once per row, 2.3 s instead of 6 ms at 30,000 messages.
    const joined = where.length > 0 || index === null;
    const from = index === null ? 'messages m' : joined ? `${index} f CROSS JOIN messages m ON m.rowid = f.rowid` : `${index} f`;
    if (index !== null) where.unshift(`${index} MATCH ?`);
    const all = [...ftsParams, ...params];
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const order = index === null ? 'm.rowid' : 'f.rowid';
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    // One pass over the index yields both the (capped) count and, usually, the page.
    const ids = (this.cached(`SELECT ${order} AS r FROM ${from} ${clause} ORDER BY ${order} DESC LIMIT ${SEARCH_COUNT_CAP + 1}`).all(...all) as { r: number }[]).map((x) => x.r);
    const pageIds =
      offset + limit <= ids.length || ids.length <= SEARCH_COUNT_CAP
        ? ids.slice(offset, offset + limit)
        : (this.cached(`SELECT ${order} AS r FROM ${from} ${clause} ORDER BY ${order} DESC LIMIT ? OFFSET ?`).all(...all, limit, offset) as { r: number }[]).map((x) => x.r);
    const page: CachePage = { items: this.summaries(pageIds), total: Math.min(ids.length, SEARCH_COUNT_CAP) };
    if (ids.length > SEARCH_COUNT_CAP) page.totalCapped = true;
    return page;
  }

  /** The result rows of these messages, in this order, from the columns alone (no stored record is parsed). */
  private summaries(rowids: number[]): CacheSummary[] {
    if (!rowids.length) return [];
    const found = this.cached(`SELECT ${SUMMARY_COLUMNS} FROM messages WHERE rowid IN (${rowids.map(() => '?').join(',')})`).all(...rowids) as SummaryRow[];
    const byId = new Map(found.map((r) => [r.rowid, r]));
    return rowids.flatMap((id) => {
      const r = byId.get(id);
      return r ? [toSummary(r)] : [];
    });
  }

  listTransitions(q: { kinds?: TransitionKind[]; address?: string; messageId?: string; beforeId?: number; limit?: number }): Transition[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (q.kinds?.length) {
      where.push(`kind IN (${q.kinds.map(() => '?').join(', ')})`);
      params.push(...q.kinds);
    }
    if (q.address) {
      where.push('message_id IN (SELECT message_id FROM message_watchers WHERE watcher = ?)');
      params.push(q.address);
    }
    if (q.messageId) {
      where.push('message_id = ?');
      params.push(q.messageId);
    }
    if (q.beforeId) {
      where.push('id < ?');
      params.push(q.beforeId);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const rows = this.db.prepare(`SELECT * FROM transitions ${clause} ORDER BY id DESC LIMIT ?`).all(...params, q.limit ?? 100) as TransitionRow[];
    return rows.map(toTransition);
  }

  transitionsByIds(ids: number[]): Transition[] {
    if (!ids.length) return [];
    const rows = this.db.prepare(`SELECT * FROM transitions WHERE id IN (${ids.map(() => '?').join(', ')}) ORDER BY id`).all(...ids) as TransitionRow[];
    return rows.map(toTransition);
  }

  /** Deletes settled messages not seen for `olderThan`, and old log entries and delivered notifications. */
  prune(olderThan: number): { messages: number; transitions: number } {
    return this.transaction(() => {
      const old = this.db.prepare('SELECT rowid, message_id FROM messages WHERE last_seen_at < ? AND tracked = 0').all(olderThan) as { rowid: number; message_id: string }[];
      for (const r of old) {
        this.unindex(r.rowid);
        this.db.prepare('DELETE FROM message_watchers WHERE message_id = ?').run(r.message_id);
        this.db.prepare('DELETE FROM messages WHERE rowid = ?').run(r.rowid);
      }
      const t = this.db.prepare('DELETE FROM transitions WHERE at < ? AND id NOT IN (SELECT transition_id FROM outbox WHERE delivered_at IS NULL)').run(olderThan);
      this.db.prepare('DELETE FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at < ?').run(olderThan);
      return { messages: old.length, transitions: t.changes };
    });
  }

  private toCached(r: CacheRow): CachedMessage {
    const message = parseStored(r);
    const watchers = this.watchers(r.message_id)
      .map((w) => w.watcher)
      .filter((w) => !isFeedKey(w));
    return { message, network: r.network as Network, firstSeenAt: r.first_seen_at, lastSeenAt: r.last_seen_at, watchedAddresses: watchers };
  }
}

/** Columns both the tracking state and a search result row read. */
interface MessageColumns {
  message_id: string;
  network: string;
  status: string;
  receipt_delivered: number;
  from_addr: string;
  last_seen_at: number;
}

interface TrackedRow extends MessageColumns {
  to_addr: string;
  source_ts: number | null;
  destination_ts: number | null;
  pending_since: number | null;
  stuck_fired: number;
}

function toTracked(r: TrackedRow): TrackedMessage {
  return {
    messageId: r.message_id,
    network: r.network as Network,
    status: r.status,
    receiptDelivered: r.receipt_delivered === 1,
    from: r.from_addr,
    to: r.to_addr,
    sourceTs: r.source_ts,
    sortTs: r.source_ts ?? r.destination_ts,
    pendingSince: r.pending_since,
    stuckFired: r.stuck_fired === 1,
    lastSeenAt: r.last_seen_at,
  };
}

/**
 * A result row's columns. Chains fall back to the EVM chain ID in the record (the columns hold cb58
 * IDs only), and the time is the source transaction's, else the destination's.
 */
const SUMMARY_COLUMNS = `rowid, message_id, network, status, receipt_delivered, from_addr,
  COALESCE(NULLIF(source_chain, ''), CAST(json_extract(raw, '$.sourceEvmChainId') AS TEXT)) AS source_chain,
  COALESCE(NULLIF(destination_chain, ''), CAST(json_extract(raw, '$.destinationEvmChainId') AS TEXT)) AS destination_chain,
  COALESCE(source_ts, destination_ts) AS ts, last_seen_at`;

interface SummaryRow extends MessageColumns {
  rowid: number;
  source_chain: string | null;
  destination_chain: string | null;
  ts: number | null;
}

function toSummary(r: SummaryRow): CacheSummary {
  return {
    messageId: r.message_id,
    network: r.network as Network,
    status: r.status,
    receiptDelivered: r.receipt_delivered === 1,
    from: r.from_addr || null,
    sourceChain: r.source_chain || null,
    destinationChain: r.destination_chain || null,
    time: r.ts,
    lastSeenAt: r.last_seen_at,
  };
}

function parseStored(r: CacheRow): TeleporterMessage {
  const raw = JSON.parse(r.raw) as unknown;
  return parseMessage(raw) ?? { status: 'unknown', messageId: r.message_id, reportedStatus: r.status, problem: 'stored record unreadable', raw: {} };
}

interface CacheRow {
  rowid: number;
  message_id: string;
  network: string;
  status: string;
  raw: string;
  first_seen_at: number;
  last_seen_at: number;
}

function bind(row: MessageRow) {
  return {
    messageId: row.messageId,
    network: row.network,
    status: row.status,
    rd: row.receiptDelivered ? 1 : 0,
    from: row.from,
    to: row.to,
    sourceChain: row.sourceChain,
    destinationChain: row.destinationChain,
    sourceTs: row.sourceTs,
    destinationTs: row.destinationTs,
    raw: row.raw,
    seenAt: row.seenAt,
    tracked: row.tracked ? 1 : 0,
    pendingSince: row.pendingSince,
    stuckFired: row.stuckFired ? 1 : 0,
  };
}

function toTransition(r: TransitionRow): Transition {
  return {
    id: r.id,
    messageId: r.message_id,
    kind: r.kind as TransitionKind,
    fromStatus: r.from_status,
    toStatus: r.to_status,
    at: r.at,
    network: r.network as Network,
    sourceBlockchainId: r.source_chain,
    destinationBlockchainId: r.destination_chain,
    watchers: (JSON.parse(r.watchers) as string[]).map(watcherRef),
  };
}
