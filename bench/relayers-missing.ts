/**
 * Which truth deliveries the core's figures lack, and why, read from the core's own database file
 * (read-only): per delivery, whether the core never saw the message, holds it pending, or holds it
 * delivered by someone else or at another time. And the reverse: deliveries the core holds on a watched
 * route that the truth does not (invented or mis-attributed). Diagnosis for `npm run bench:relayers`.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DATABASE_FILE } from '../src/core/store/database';
import type { TruthDelivery } from './relayer-truth';

/**
 * `pending_unread`: the core holds it pending and last read it before the service showed its delivery
 * (its figures are as of that read); `pending_read`: it read the record after its delivery showed and still
 * holds it pending (a miss of the core's).
 */
export type CoreState = 'never_seen' | 'pending_unread' | 'pending_read' | 'other_deliverer' | 'other_time';

export interface MissingDelivery {
  route: string;
  deliverer: string;
  state: CoreState;
  /** Seconds from the delivery (on chain) to the judged moment. */
  deliveredBeforeEndS: number;
  /** Seconds from the delivery to when the service first showed it (the indexer's lag). */
  visibleAfterS: number;
  /** Seconds from the send to the delivery. */
  latencyS: number | null;
  /** Seconds from the core's last read of the message to the judged moment (null: never read). */
  readBeforeEndS: number | null;
  /** Why the core stopped following it, if it did. */
  trackingEnded: string | null;
}

interface CoreRow {
  status: string;
  last_seen_at: number;
  tracking_ended: string | null;
  destination_ts: number | null;
  raw: string;
}

const delivererOf = (raw: string): string | null => {
  const r = JSON.parse(raw) as { destinationTransaction?: { delivererAddress?: string } };
  return r.destinationTransaction?.delivererAddress?.toLowerCase() ?? null;
};

/**
 * How late the core may read a pending message's delivery, by the docs' re-check cadence
 * (docs/architecture.md "Quick detection"): younger than 2 min every cycle, older every quarter of its
 * age (at least 3 intervals, at most 1 h); plus 2 intervals for the cycle that reads it and the one
 * before, and however far behind the core's status bar said its reads were at the end.
 */
export function readLagAllowedMs(ageMs: number, intervalMs: number, behindMs: number): number {
  const cadence = ageMs < 2 * 60_000 ? intervalMs : Math.min(3_600_000, Math.max(3 * intervalMs, ageMs / 4));
  return cadence + 2 * intervalMs + behindMs;
}

/**
 * `truth`: the deliveries the figures should count (already windowed); `watchedRoutes`: source>destination
 * chain pairs (cb58). Returns the ones the core lacks and the core's deliveries the truth lacks.
 */
export function missingDeliveries(dataDir: string, truth: readonly TruthDelivery[], end: number, fromMs: number) {
  const db = new DatabaseSync(join(dataDir, DATABASE_FILE), { readOnly: true });
  try {
    const one = db.prepare('SELECT status, destination_ts, last_seen_at, tracking_ended, raw FROM messages WHERE message_id = ?');
    const missing: (MissingDelivery & { messageId: string })[] = [];
    for (const d of truth) {
      const row = one.get(d.messageId) as CoreRow | undefined;
      let state: CoreState | null = null;
      if (!row) state = 'never_seen';
      else if (row.destination_ts === null) state = row.last_seen_at < d.visibleAt ? 'pending_unread' : 'pending_read';
      else if (delivererOf(row.raw) !== d.deliverer.toLowerCase()) state = 'other_deliverer';
      else if (row.destination_ts * 1000 !== d.deliveredAt) state = 'other_time';
      if (!state) continue;
      missing.push({
        messageId: d.messageId,
        route: d.route,
        deliverer: d.deliverer.toLowerCase(),
        state,
        deliveredBeforeEndS: Math.round((end - d.deliveredAt) / 1000),
        visibleAfterS: Math.round((d.visibleAt - d.deliveredAt) / 1000),
        latencyS: d.sentAt === null ? null : Math.round((d.deliveredAt - d.sentAt) / 1000),
        readBeforeEndS: row ? Math.round((end - row.last_seen_at) / 1000) : null,
        trackingEnded: row?.tracking_ended ?? null,
      });
    }
    // The reverse: delivered in the core's cache within the window, unknown to the truth.
    const known = new Set(truth.map((d) => d.messageId));
    const extra = (
      db
        .prepare(
          "SELECT m.message_id AS id FROM messages m WHERE m.destination_ts > ? AND m.destination_ts <= ? AND EXISTS (SELECT 1 FROM message_watchers w WHERE w.message_id = m.message_id AND w.watcher LIKE 'route:%')",
        )
        .all(Math.floor(fromMs / 1000), Math.floor(end / 1000)) as { id: string }[]
    ).filter((r) => !known.has(r.id)).length;
    return { missing, extra };
  } finally {
    db.close();
  }
}

/** Counts of the missing by a key, most first. */
export function tally<T>(xs: readonly T[], key: (x: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[key(x)] = (out[key(x)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1]));
}
