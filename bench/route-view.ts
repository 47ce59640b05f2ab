/**
 * What the core's watched routes show, as transitions a bench can judge. A route's messages are not news
 * message by message (no Activity entry, no notification: src/core/watch/engine.ts): they feed the
 * Relayers view's figures (pending, backlog, deliveries by relayer), counted from the core's cached
 * messages. So the bench reads that cache after each cycle: a message first linked to a route as news (not
 * as its baseline's history) is `new`, and one the cache holds delivered that it held pending, or first
 * holds delivered as news or with a delivery after the watch began, is `left_pending`. Read-only, from the core's own database file.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DATABASE_FILE } from '../src/core/store/database';

export interface RouteDetection {
  id: string;
  kind: 'new' | 'left_pending';
  at: number;
}

const ROWS = `SELECT m.message_id AS id, m.status AS status, m.destination_ts AS deliveredTs, MIN(w.baseline) AS baseline
  FROM message_watchers w JOIN messages m ON m.message_id = w.message_id
  WHERE w.watcher LIKE 'route:%' GROUP BY m.message_id`;

interface Row {
  id: string;
  status: string;
  deliveredTs: number | null;
  baseline: number;
}

export class RouteView {
  private readonly pending = new Map<string, boolean>();

  /** `since`: when the routes were watched (ms): a delivery after it shows in the figures as news. */
  constructor(
    private readonly dataDir: string,
    private readonly since: number,
  ) {}

  private rows(): Row[] {
    const db = new DatabaseSync(join(this.dataDir, DATABASE_FILE), { readOnly: true });
    try {
      return db.prepare(ROWS).all() as unknown as Row[];
    } finally {
      db.close();
    }
  }

  /** Whether a watched route still waits for its baseline. */
  baselinePending(): boolean {
    const db = new DatabaseSync(join(this.dataDir, DATABASE_FILE), { readOnly: true });
    try {
      return Number((db.prepare('SELECT COUNT(*) AS n FROM route_watches WHERE baseline_done = 0').get() as { n: number }).n) > 0;
    } finally {
      db.close();
    }
  }

  /** Notes what the routes show now; returns what changed since the last read (`silent`: the baseline's, nothing returned). */
  read(at: number, silent = false): RouteDetection[] {
    const out: RouteDetection[] = [];
    for (const r of this.rows()) {
      const pendingNow = r.status === 'pending';
      const before = this.pending.get(r.id);
      if (before === pendingNow) continue;
      this.pending.set(r.id, pendingNow);
      if (silent) continue;
      if (before === undefined && r.baseline === 0) out.push({ id: r.id, kind: 'new', at });
      const deliveredSince = r.deliveredTs !== null && r.deliveredTs * 1000 >= this.since;
      if ((before || (before === undefined && (r.baseline === 0 || deliveredSince))) && !pendingNow) out.push({ id: r.id, kind: 'left_pending', at });
    }
    return out;
  }
}
