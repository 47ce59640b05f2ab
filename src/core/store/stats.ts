import type { Stats, StatsBucket } from '../../shared/contract';
import { TRANSITION_KINDS } from '../../shared/schemas';
import type { SourceKey } from '../../shared/sources';
import type { Db } from './database';
import { HOUR_MS, MINUTE_MS } from '../../shared/time';

/** A readable bucket size giving at most about 48 buckets. */
export function bucketSizeFor(hours: number): number {
  const steps = [5 * MINUTE_MS, 15 * MINUTE_MS, 30 * MINUTE_MS, HOUR_MS, 3 * HOUR_MS, 6 * HOUR_MS, 12 * HOUR_MS, 24 * HOUR_MS];
  const span = hours * HOUR_MS;
  return steps.find((s) => span / s <= 48) ?? 24 * HOUR_MS;
}

/** Index (from 0) of the nearest-rank p-th percentile among `n` ascending values (n > 0). */
export const nearestRank = (n: number, p: number): number => Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1));

/** Nearest-rank percentile of ascending values; null when there are none. */
export function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  return sorted[nearestRank(sorted.length, p)] as number;
}

/**
 * Aggregates the transition log into time buckets, plus delivery latency and status counts: of the
 * current data source's figures only (another source's are not counted as this one's).
 */
export function computeStats(db: Db, now: number, hours: number, source: SourceKey): Stats {
  const bucketMs = bucketSizeFor(hours);
  const since = now - hours * HOUR_MS;
  const first = Math.floor(since / bucketMs) * bucketMs;
  const buckets: StatsBucket[] = [];
  for (let start = first; start <= now; start += bucketMs) buckets.push({ start, new: 0, left_pending: 0, receipt_delivered: 0, stuck: 0 });
  // A bound JS number may arrive as REAL, and REAL division does not truncate: the bucket size is
  // cast so `at / size` is integer division and every row lands on a bucket start.
  const rows = db
    .prepare(
      'SELECT (at / CAST(@size AS INTEGER)) * CAST(@size AS INTEGER) AS start, kind, COUNT(*) AS n FROM transitions WHERE at >= @first AND at <= @now AND source = @source GROUP BY 1, 2',
    )
    .all({ size: bucketMs, first, now, source }) as { start: number; kind: string; n: number }[];
  const index = new Map(buckets.map((b) => [b.start, b]));
  for (const r of rows) {
    const b = index.get(r.start);
    if (b && (TRANSITION_KINDS as readonly string[]).includes(r.kind)) b[r.kind as keyof Omit<StatsBucket, 'start'>] += r.n;
  }
  const latencies = (
    db
      .prepare(
        'SELECT destination_ts - source_ts AS d FROM messages WHERE source_ts IS NOT NULL AND destination_ts IS NOT NULL AND source_ts >= ? AND source = ? ORDER BY d',
      )
      .all(Math.floor(since / 1000), source) as { d: number }[]
  ).map((r) => r.d);
  const byStatus: Record<string, number> = {};
  for (const r of db.prepare('SELECT status, COUNT(*) AS n FROM messages WHERE last_seen_at >= ? AND source = ? GROUP BY status').all(since, source) as {
    status: string;
    n: number;
  }[]) {
    byStatus[r.status] = r.n;
  }
  return {
    buckets,
    bucketMs,
    deliveryLatency: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), count: latencies.length },
    byStatus,
  };
}
