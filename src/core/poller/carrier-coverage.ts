/**
 * Since when the reads of a network's unfiltered list saw every record: then every carrier that brought
 * a receipt back was read, and named its original (receipt-carriers.ts), so a delivered message awaiting
 * its receipt needs no fallback re-check by ID (recheck-cadence.ts). That fallback costs a request per
 * message every 5-60 min for up to a day (TRACKING_LIMIT_HOURS): on a one-way route, where receipts never
 * come back, it grew with every delivery until it spent the day's budget.
 *
 * The list is read without a gap while each cycle reads it (firehose mode: a read cut short keeps its
 * cursor; an echo is never dropped) and late records are caught up to MAX_LATENESS_S: coverage begins
 * again when the network is not read that way for a cycle (per-address mode, nothing to read, a restart or
 * a switch of source: the state starts empty), when the trailing sweep falls so far behind that records
 * MAX_LATENESS_S late could pass it, or after a stall longer than the sweeps reach (late-records.ts).
 */
import { COVERAGE_MARGIN_MS, MAX_LATENESS_S, TRAIL_PERIOD_MS } from '../../shared/policy';
import type { NetworkState } from './network-state';

/** A trailing sweep older than this leaves records up to MAX_LATENESS_S late unread (one starts every TRAIL_PERIOD_MS). */
const TRAIL_LATE_MS = MAX_LATENESS_S * 1000 - TRAIL_PERIOD_MS;

/** At the start of a network's cycle, once its mode is known: where coverage stands. */
export function noteCoverage(s: NetworkState, nowMs: number): void {
  if (s.mode !== 'firehose' || s.head === null) {
    s.coveredSince = null;
    return;
  }
  const trailLate = s.echoChain === null && s.lastTrailAt !== null && nowMs - s.lastTrailAt > TRAIL_LATE_MS;
  const heldBeyondReach = s.stall !== null && s.stall.limited && s.stall.resumedAt > (s.coveredSince ?? -Infinity);
  if (s.coveredSince === null || trailLate || heldBeyondReach) s.coveredSince = nowMs;
}

/**
 * Every carrier of this message's receipt was read, if one came (its original was then asked for by ID):
 * it was last read COVERAGE_MARGIN_MS or more into the coverage (a carrier visible before coverage began,
 * unread, would have shown its receipt on the original's own record by that read).
 */
export const receiptCovered = (coveredSince: number | null, lastSeenAt: number): boolean =>
  coveredSince !== null && lastSeenAt >= coveredSince + COVERAGE_MARGIN_MS;
