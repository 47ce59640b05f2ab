/**
 * Which truth deliveries the core's figures lack, and why, read from the core's own database file
 * (read-only): per delivery, whether the core never saw the message, holds it pending, or holds it
 * delivered by someone else or at another time. And the reverse: deliveries the core holds on a watched
 * route that the truth does not (invented or mis-attributed). Diagnosis for `npm run bench:relayers`.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DATABASE_FILE } from '../src/core/store/database';
import { behindExcusedMs, CORE_ROW_SQL, coreStateOf, readLagAllowedMs, type CoreRow, type CoreState } from './not-read-yet';
import type { TruthDelivery } from './relayer-truth';

export interface MissingDelivery {
  route: string;
  deliverer: string;
  state: CoreState;
  /** Seconds from the delivery (on chain) to the judged moment. */
  deliveredBeforeEndS: number;
  /** Seconds from the delivery to when the service first showed it (the indexer's lag). */
  visibleAfterS: number;
  /** Seconds from when the service first showed the message (in any state) to the judged moment. */
  shownBeforeEndS: number;
  /** Seconds from the send to the delivery. */
  latencyS: number | null;
  /** Seconds from the core's last read of the message to the judged moment (null: never read). */
  readBeforeEndS: number | null;
  /** Why the core stopped following it, if it did. */
  trackingEnded: string | null;
}

/**
 * `truth`: the deliveries the figures should count (already windowed); `watchedRoutes`: source>destination
 * chain pairs (cb58). Returns the ones the core lacks and the core's deliveries the truth lacks.
 */
export function missingDeliveries(dataDir: string, truth: readonly TruthDelivery[], end: number, fromMs: number) {
  const db = new DatabaseSync(join(dataDir, DATABASE_FILE), { readOnly: true });
  try {
    const one = db.prepare(CORE_ROW_SQL);
    const missing: (MissingDelivery & { messageId: string })[] = [];
    for (const d of truth) {
      const row = one.get(d.messageId) as CoreRow | undefined;
      const state = coreStateOf(row, d);
      if (!state) continue;
      missing.push({
        messageId: d.messageId,
        route: d.route,
        deliverer: d.deliverer.toLowerCase(),
        state,
        deliveredBeforeEndS: Math.round((end - d.deliveredAt) / 1000),
        visibleAfterS: Math.round((d.visibleAt - d.deliveredAt) / 1000),
        shownBeforeEndS: Math.round((end - (d.shownAt ?? d.visibleAt)) / 1000),
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

/**
 * A missing delivery the core had not read yet at the end, judged by the stated re-check cadence and the
 * core's "behind" (its status bar's, capped at BEHIND_EXCUSED_MAX_MS): held pending as last read before
 * its delivery showed, within the cadence for its age; or never seen, first shown within that "behind"
 * plus 2 intervals of the end (the part of the list it appeared in is still owed a read). Else a drop.
 */
export function notYetDue(m: MissingDelivery, intervalMs: number, behindMs: number): boolean {
  if (m.state === 'pending_unread')
    return (m.deliveredBeforeEndS - m.visibleAfterS) * 1000 <= readLagAllowedMs(((m.latencyS ?? 0) + m.visibleAfterS) * 1000, intervalMs, behindMs);
  return m.state === 'never_seen' && m.shownBeforeEndS * 1000 <= behindExcusedMs(behindMs) + 2 * intervalMs;
}

/** Counts of the missing by a key, most first. */
export function tally<T>(xs: readonly T[], key: (x: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[key(x)] = (out[key(x)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1]));
}
