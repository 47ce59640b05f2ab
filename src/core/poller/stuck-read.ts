/**
 * `stuck` from a read, not from an old one: a message is called stuck only once a read in the interval
 * before its threshold or since still showed it pending. Under a budget shorter than the work (echo mode)
 * the re-check before the threshold may not come in time: judged from a read 20 minutes old, a message
 * delivered meanwhile was called stuck (bench:day at 20 msg/s: 224 false `stuck` without a key). Such a
 * message is held and asked for every cycle for CATCH_UP_MAX_MS past its threshold (then on its cadence):
 * `stuck` comes later, never falsely.
 */
import { CATCH_UP_MAX_MS } from '../../shared/policy';
import type { TrackedMessage } from '../store';

/** When its stuck threshold is reached (ms; null: its pending time unknown, the engine counts from its last read). */
const thresholdAt = (t: TrackedMessage, thresholdMs: number): number | null => (t.pendingSince === null ? null : t.pendingSince + thresholdMs);

/** Pending, not yet called stuck, its threshold within an interval or past, and last read before that interval. */
export function stuckUnconfirmed(t: TrackedMessage, nowMs: number, thresholdMs: number, intervalMs: number): boolean {
  if (t.status !== 'pending' || t.stuckFired) return false;
  const at = thresholdAt(t, thresholdMs);
  if (at === null) return false;
  return nowMs >= at - intervalMs && t.lastSeenAt < at - intervalMs;
}

/** An unconfirmed one is asked for every cycle for CATCH_UP_MAX_MS past its threshold (after that, on its cadence). */
export const stuckReadDue = (t: TrackedMessage, nowMs: number, thresholdMs: number, intervalMs: number): boolean =>
  stuckUnconfirmed(t, nowMs, thresholdMs, intervalMs) && nowMs - (thresholdAt(t, thresholdMs) ?? nowMs) < CATCH_UP_MAX_MS;
