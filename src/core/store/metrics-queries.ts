import type { SourceKey } from '../../shared/sources';
import type { Db } from './database';

interface StatusCount {
  key: string;
  status: string;
  n: number;
}

/** Read-only counts the Prometheus metrics are built from at scrape time: the current data source's messages only. */
export class MetricsQueries {
  private readonly stmts;

  constructor(
    db: Db,
    private readonly source: () => SourceKey,
  ) {
    this.stmts = {
      trackedByRoute: db.prepare<[string], StatusCount>(
        "SELECT source_chain || '|' || destination_chain AS key, status, COUNT(*) AS n FROM messages WHERE tracked = 1 AND source = ? GROUP BY source_chain, destination_chain, status",
      ),
      trackedByWatchLabel: db.prepare<[string], StatusCount>(
        `SELECT COALESCE(w.label, f.name, r.label, '') AS key, m.status, COUNT(DISTINCT m.message_id) AS n
         FROM messages m JOIN message_watchers mw ON mw.message_id = m.message_id
         LEFT JOIN watches w ON w.address = mw.watcher
         LEFT JOIN feeds f ON mw.watcher = 'feed:' || f.id
         LEFT JOIN route_watches r ON mw.watcher = 'route:' || r.id
         WHERE m.tracked = 1 AND m.source = ? GROUP BY key, m.status`,
      ),
      stuckByRoute: db.prepare<[string], { key: string; n: number }>(
        "SELECT source_chain || '|' || destination_chain AS key, COUNT(*) AS n FROM messages WHERE tracked = 1 AND source = ? AND status = 'pending' AND stuck_fired = 1 GROUP BY source_chain, destination_chain",
      ),
      trackingEnded: db.prepare<[string], { reason: string; n: number }>(
        'SELECT tracking_ended AS reason, COUNT(*) AS n FROM messages WHERE tracked = 0 AND tracking_ended IS NOT NULL AND source = ? GROUP BY tracking_ended',
      ),
      delivery: db.prepare<[string], { s: number | null; d: number | null }>('SELECT source_ts AS s, destination_ts AS d FROM messages WHERE message_id = ?'),
    };
  }

  /** Tracked messages by (source chain, destination chain, status); key is "source|destination". */
  trackedByRoute(): StatusCount[] {
    return this.stmts.trackedByRoute.all(this.source());
  }

  /** Tracked messages by watch label (an address's label, a feed's name or a route's label; '' when none) and status. */
  trackedByWatchLabel(): StatusCount[] {
    return this.stmts.trackedByWatchLabel.all(this.source());
  }

  /** Messages still pending that fired `stuck`, by route key. */
  stuckByRoute(): { key: string; n: number }[] {
    return this.stmts.stuckByRoute.all(this.source());
  }

  /** Messages no longer tracked because they passed a tracking limit, by reason (receipt_missing, pending_too_long). */
  trackingEnded(): { reason: string; n: number }[] {
    return this.stmts.trackingEnded.all(this.source());
  }

  /** Seconds from source to destination transaction of one message, or null. */
  deliverySeconds(messageId: string): number | null {
    const r = this.stmts.delivery.get(messageId);
    return r && r.s !== null && r.d !== null && r.d >= r.s ? r.d - r.s : null;
  }
}
