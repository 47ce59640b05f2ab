/**
 * The list operations' paging queries: which positions (sort keys) one page holds, read from the
 * covering indexes only (no record is read here). One range scan for most queries; several
 * (routes, networks, sender/recipient) are merged in order.
 */
import type { Database, Statement } from '../../sqlite';
import type { ChainRef } from '../../shared/validators';
import type { Dictionaries } from './dictionaries';
import { planScans, type Conjunction } from './scan-plan';
import { MESSAGE_INDEXES, NET_CODES, type IndexSpec } from './schema';

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

interface PagePositions {
  /** Sort keys, newest first. */
  positions: number[];
  hasMore: boolean;
}

const NO_CURSOR = Number.MAX_SAFE_INTEGER;

export class PageFinder {
  private readonly scanStatements = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    private readonly dictionaries: Dictionaries,
  ) {}

  /** One page, newest first, of positions older than `before` (a position from an earlier page). */
  find(q: StoreQuery, before: number | undefined, limit: number): PagePositions {
    const cursor = before ?? NO_CURSOR;
    const base = this.conjunction(q);
    let branches: (Conjunction | null)[] = [base];
    if (q.address !== undefined) {
      const a = this.dictionaries.knownAddress(q.address);
      branches =
        a === undefined || !base
          ? []
          : [
              { ...base, frm: a },
              { ...base, too: a },
            ];
    }
    const plans = branches.flatMap((b) => {
      const plan = b ? planScans(b, { routes: this.dictionaries.routes }, MESSAGE_INDEXES) : null;
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

  /** The query plan SQLite uses for an index scan (tests check that no sort step is needed). */
  explainScan(index: IndexSpec): string[] {
    const sql = scanSql(index);
    const args = [...index.cols.map(() => 1), 1, 1];
    return this.db
      .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...args)
      .map((r) => r.detail);
  }

  /** The filter as equality constraints on dictionary IDs; null when it cannot match anything. */
  private conjunction(q: StoreQuery): Conjunction | null {
    const c: Conjunction = {};
    const d = this.dictionaries;
    const net = q.network ? NET_CODES[q.network] : undefined;
    if (q.source || q.destination || q.blockchainId) {
      const src = q.source ? d.chainsMatching(q.source) : null;
      const dst = q.destination ? d.chainsMatching(q.destination) : null;
      const either = q.blockchainId ? d.chainsMatching({ kind: 'blockchainId', value: q.blockchainId }) : null;
      c.routes = d.routes
        .filter(
          (r) =>
            (net === undefined || r.net === net) && (!src || src.has(r.src)) && (!dst || dst.has(r.dst)) && (!either || either.has(r.src) || either.has(r.dst)),
        )
        .map((r) => r.id);
    } else if (net !== undefined) c.net = [net];
    if (q.from !== undefined) {
      const id = d.knownAddress(q.from);
      if (id === undefined) return null;
      c.frm = id;
    }
    if (q.to !== undefined) {
      const id = d.knownAddress(q.to);
      if (id === undefined) return null;
      c.too = id;
    }
    return c;
  }

  /** One statement per index, prepared on first use. */
  private scanStatement(index: IndexSpec | null): Statement {
    const key = index?.name ?? 'rowid';
    let s = this.scanStatements.get(key);
    if (!s) {
      s = this.db.prepare(scanSql(index)).pluck();
      this.scanStatements.set(key, s);
    }
    return s;
  }
}

function scanSql(index: IndexSpec | null): string {
  if (!index) return 'SELECT pos FROM messages WHERE pos < ? ORDER BY pos DESC LIMIT ?';
  const where = index.cols.map((c) => `${c} = ?`).join(' AND ');
  return `SELECT pos FROM messages INDEXED BY ${index.name} WHERE ${where} AND pos < ? ORDER BY pos DESC LIMIT ?`;
}
