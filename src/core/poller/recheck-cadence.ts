/**
 * Which tracked messages a poll cycle re-checks. Where carriers of receipts are seen (the network's
 * firehose is read: every new message passes its head with its `receipts[]`), a pending message older
 * than CARRIER_FRESH_MS needs no tight cadence: a carrier naming it tells of its delivery, and one
 * delivered brings the receipt of a delivered message (receipt-carriers.ts). Both are re-checked only
 * as a fallback for a carrier missed (a restart, a scan cut short): a quarter of their age, at least
 * RECHECK_FALLBACK_MS, at most hourly. Everything else keeps isDue's cadence.
 */
import type { TrackedMessage } from '../store';
import { isDue } from './plan';

/** Pending messages younger than this are re-checked every cycle even where carriers are seen (most deliveries come within it). */
export const CARRIER_FRESH_MS = 2 * 60_000;
export const RECHECK_FALLBACK_MS = 5 * 60_000;

export function recheckDue(t: TrackedMessage, ageMs: number, sinceSeenMs: number, intervalMs: number, liveMs: number, carriersSeen: boolean): boolean {
  const open = t.status === 'pending' ? ageMs >= CARRIER_FRESH_MS : !t.receiptDelivered;
  if (!carriersSeen || !open) return isDue(ageMs, sinceSeenMs, intervalMs, liveMs);
  const cadence = Math.min(3600_000, Math.max(RECHECK_FALLBACK_MS, ageMs / 4));
  return sinceSeenMs >= cadence - intervalMs / 2;
}
