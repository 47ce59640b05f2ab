import type { CacheSources } from '../../shared/contract';
import { sourceName, type SourceKey } from '../../shared/sources';
import type { Db } from './database';

/**
 * Read-only: which data sources the cached messages came from. Every view counts the current source's
 * figures only and says which others the cache still holds, as of when (their rows are marked).
 */
export class CacheSourcesQuery {
  private readonly stmt;

  constructor(db: Db) {
    // A pass over the rows (no index on source: it would lure the figures' range queries off theirs), read
    // only when a view resynchronises (the start, a reconnect, a source change).
    this.stmt = db.prepare<[string], { source: string; messages: number; asOf: number }>(
      'SELECT source, COUNT(*) AS messages, MAX(last_seen_at) AS asOf FROM messages WHERE source <> ? GROUP BY source ORDER BY asOf DESC',
    );
  }

  read(current: SourceKey): CacheSources {
    return {
      current,
      currentName: sourceName(current),
      others: this.stmt.all(current).map((r) => ({ source: r.source, name: sourceName(r.source), messages: r.messages, asOf: r.asOf })),
    };
  }
}
