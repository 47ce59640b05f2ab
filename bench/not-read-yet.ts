/**
 * Like with like for the relayer benches (bench:relayers, bench:fuel): what the core holds for a truth
 * delivery, read from its own database, and whether a delivery it lacks is excused as not read yet by
 * the core's stated re-check cadence or is a miss (dropped, mis-attributed, never seen) that fails.
 */
import { ageCadence } from '../src/core/poller/age-cadence';
import { FRESH_AGE_MS, MAX_LATENESS_S, RECHECK_FALLBACK_MS, RECHECK_MIN_INTERVALS } from '../src/shared/policy';
import { SECOND_MS } from '../src/shared/time';
import type { TruthDelivery } from './relayer-truth';

/**
 * `pending_unread`: the core holds it pending and last read it before the service showed its delivery
 * (its figures are as of that read); `pending_read`: it read the record after its delivery showed and still
 * holds it pending (a miss of the core's).
 */
export type CoreState = 'never_seen' | 'pending_unread' | 'pending_read' | 'other_deliverer' | 'other_time';

/** The columns of the core's `messages` row the classifier reads. */
export interface CoreRow {
  status: string;
  last_seen_at: number;
  tracking_ended: string | null;
  destination_ts: number | null;
  raw: string;
}

export const CORE_ROW_SQL = 'SELECT status, destination_ts, last_seen_at, tracking_ended, raw FROM messages WHERE message_id = ?';

const delivererOf = (raw: string): string | null => {
  const r = JSON.parse(raw) as { destinationTransaction?: { delivererAddress?: string } };
  return r.destinationTransaction?.delivererAddress?.toLowerCase() ?? null;
};

/** What the core lacks of a truth delivery (null: it holds it as the truth has it). */
export function coreStateOf(row: CoreRow | undefined, d: Pick<TruthDelivery, 'visibleAt' | 'deliverer' | 'deliveredAt'>): CoreState | null {
  if (!row) return 'never_seen';
  if (row.destination_ts === null) return row.last_seen_at < d.visibleAt ? 'pending_unread' : 'pending_read';
  if (delivererOf(row.raw) !== d.deliverer.toLowerCase()) return 'other_deliverer';
  if (row.destination_ts * 1000 !== d.deliveredAt) return 'other_time';
  return null;
}

/**
 * The most of the core's self-reported "behind" (its status bar's "reads N min behind") a judge excuses:
 * the lateness docs/limits.md states for a list busier than the budget (MAX_LATENESS_S, 30 min: a
 * record up to 30 min late, or a pending message's delivery the re-checks by ID did not reach, shows
 * that late at most). A core further behind than this has its deliveries judged as drops beyond it.
 */
export const BEHIND_EXCUSED_MAX_MS = MAX_LATENESS_S * SECOND_MS;

/** The part of the core's "behind" a judge excuses: never more than BEHIND_EXCUSED_MAX_MS. */
export const behindExcusedMs = (behindMs: number): number => Math.min(Math.max(0, behindMs), BEHIND_EXCUSED_MAX_MS);

/**
 * How late the core may read a pending message's delivery, by the docs' re-check cadence
 * (docs/poller.md "Quick detection"): younger than 2 min every cycle, older every quarter of its
 * age (at least 3 intervals, at most 1 h); plus 2 intervals for the cycle that reads it and the one
 * before, and however far behind the core's status bar said its reads were at the end (capped).
 */
export function readLagAllowedMs(ageMs: number, intervalMs: number, behindMs: number): number {
  const cadence = ageMs < FRESH_AGE_MS ? intervalMs : ageCadence(ageMs, RECHECK_MIN_INTERVALS * intervalMs);
  return cadence + 2 * intervalMs + behindExcusedMs(behindMs);
}

/**
 * How late the core may read a delivered message's receipt (docs/poller.md "Quick detection"):
 * the fallback re-check, every quarter of the message's age, 5 min … 1 h (a carrier is faster), plus 2
 * intervals. `ageMs`: the message's age when the service first showed its receipt.
 */
export function receiptLagAllowedMs(ageMs: number, intervalMs: number): number {
  return ageCadence(ageMs, RECHECK_FALLBACK_MS) + 2 * intervalMs;
}

/**
 * Excused at the judged moment `now`: the core holds it pending as last read before its delivery showed,
 * and the delivery showed no longer ago than the cadence allows for a message of its age then.
 */
export function notReadYet(
  state: CoreState | null,
  d: Pick<TruthDelivery, 'visibleAt' | 'sentAt' | 'deliveredAt'>,
  now: number,
  intervalMs: number,
  behindMs: number,
): boolean {
  return state === 'pending_unread' && now - d.visibleAt <= readLagAllowedMs(d.visibleAt - (d.sentAt ?? d.deliveredAt), intervalMs, behindMs);
}
