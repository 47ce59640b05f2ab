import type { ActivityCursor, Transition, TransitionKind } from '../../shared/contract';
import type { Network } from '../../shared/validators';
import type { Db } from './database';
import { StatementCache } from './statement-cache';
import { watcherKey, watcherRef } from './watcher-key';

/** One row of `transitions` as SQLite returns it. */
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
  /** JSON array of watcher keys. */
  watchers: string;
  source: string;
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
    source: r.source,
  };
}

export interface TransitionQuery {
  kinds?: TransitionKind[];
  /** Transitions of messages this watcher (address or `feed:<id>`) has. */
  address?: string;
  messageId?: string;
  /** Only entries older than this ID (the previous page's last). */
  beforeId?: number;
  limit?: number;
}

/**
 * Which round of a message's transitions a kind belongs to: each reorg that undid its delivery (or
 * receipt) starts a new one, so the re-delivery is logged (and announced) again, once.
 */
const UNDONE_BY: Partial<Record<TransitionKind, TransitionKind>> = {
  left_pending: 'delivery_undone',
  stuck: 'delivery_undone',
  delivery_undone: 'delivery_undone',
  receipt_delivered: 'receipt_undone',
  receipt_undone: 'receipt_undone',
};

/** The transition log: every transition of every message exactly once per round (`UNIQUE(message_id, kind, round)`), newest first. */
export class TransitionLog {
  private readonly insertStmt;
  private readonly roundStmt;
  private readonly queries: StatementCache;

  constructor(db: Db) {
    this.insertStmt = db.prepare(
      `INSERT OR IGNORE INTO transitions (message_id, kind, from_status, to_status, at, network, source_chain, destination_chain, watchers, round, source)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.roundStmt = db.prepare<[string, string], number>('SELECT count(*) FROM transitions WHERE message_id = ? AND kind = ?').pluck();
    this.queries = new StatementCache(db);
  }

  /** Logs a transition unless this (message, kind) was already logged in this round; returns its id or null. */
  add(t: Omit<Transition, 'id'>): number | null {
    const undo = UNDONE_BY[t.kind];
    const round = undo ? this.roundStmt.get(t.messageId, undo)! : 0;
    const r = this.insertStmt.run(
      t.messageId,
      t.kind,
      t.fromStatus,
      t.toStatus,
      t.at,
      t.network,
      t.sourceBlockchainId,
      t.destinationBlockchainId,
      JSON.stringify(t.watchers.map(watcherKey)),
      round,
      t.source,
    );
    return r.changes > 0 ? Number(r.lastInsertRowid) : null;
  }

  list(q: TransitionQuery): Transition[] {
    const { where, params } = filters({ ...q, kinds: q.kinds?.length ? q.kinds : undefined });
    if (q.beforeId) {
      where.push('id < ?');
      params.push(q.beforeId);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const rows = this.queries.get(`SELECT * FROM transitions ${clause} ORDER BY id DESC LIMIT ?`).all(...params, q.limit ?? 100) as TransitionRow[];
    return rows.map(toTransition);
  }

  /** Activity's order: newest first by time, then ID; below `before` (an alert of the same moment sorts above a transition). */
  timeline(q: { kinds?: readonly TransitionKind[]; address?: string; before?: ActivityCursor; limit: number }): Transition[] {
    const { where, params } = filters(q);
    if (q.before?.kind === 'alert') {
      where.push('at <= ?');
      params.push(q.before.at);
    } else if (q.before) {
      where.push('at <= ? AND (at < ? OR id < ?)');
      params.push(q.before.at, q.before.at, q.before.id);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const rows = this.queries.get(`SELECT * FROM transitions ${clause} ORDER BY at DESC, id DESC LIMIT ?`).all(...params, q.limit) as TransitionRow[];
    return rows.map(toTransition);
  }
}

/** The filters both orders share; `kinds` absent: every kind (an empty list: none). */
function filters(q: { kinds?: readonly TransitionKind[] | undefined; address?: string | undefined; messageId?: string | undefined }) {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.kinds) {
    // One bound JSON list, so any number of kinds shares one statement.
    where.push('kind IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(q.kinds));
  }
  if (q.address) {
    where.push('message_id IN (SELECT message_id FROM message_watchers WHERE watcher = ?)');
    params.push(q.address);
  }
  if (q.messageId) {
    where.push('message_id = ?');
    params.push(q.messageId);
  }
  return { where, params };
}
