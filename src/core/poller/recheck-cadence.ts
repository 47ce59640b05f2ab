/**
 * Which tracked messages a poll cycle re-checks. A pending message always keeps isDue's cadence: its
 * delivery is made by a relayer on the destination chain and needs no traffic back, so quick
 * detection must not wait for a carrier (a quiet one-way route has none). A delivered message awaiting
 * its receipt is different: its receipt only comes back ON a carrier (a message back, or a relayer's
 * receipt re-send), and where carriers are seen (the network's firehose is read: every new message
 * passes its head with its `receipts[]`) the carrier hints at it (receipt-carriers.ts). So it is
 * re-checked only as a fallback for a carrier that may have been missed: a quarter of its age, at least
 * RECHECK_FALLBACK_MS, at most RECHECK_MAX_MS (age-cadence.ts); not at all where every carrier since its last read was read
 * (carrier-coverage.ts).
 */
import type { TrackedMessage } from '../store';
import { FRESH_AGE_MS, RECHECK_FALLBACK_MS } from '../../shared/policy';
import { ageCadence } from './age-cadence';
import { isDue } from './request-prices';

/** A quarter of the age, at least RECHECK_FALLBACK_MS, at most RECHECK_MAX_MS. */
export const fallbackCadence = (ageMs: number) => ageCadence(ageMs, RECHECK_FALLBACK_MS);

/** How a receipt's carriers are read: not (per-address mode), seen (the firehose), or all read since the message's last read. */
export type Carriers = 'unseen' | 'seen' | 'covered';

export function recheckDue(t: TrackedMessage, ageMs: number, sinceSeenMs: number, intervalMs: number, liveMs: number, carriers: Carriers): boolean {
  const awaitingReceipt = t.status !== 'pending' && !t.receiptDelivered;
  if (carriers === 'unseen' || !awaitingReceipt) return isDue(ageMs, sinceSeenMs, intervalMs, liveMs);
  return carriers === 'seen' && sinceSeenMs >= fallbackCadence(ageMs) - intervalMs / 2;
}

/**
 * Is a pending carrier nobody watches due to be asked for by ID? A fresh one every cycle (most
 * deliveries happen then, and its delivery brings an original's receipt back); an older one on the
 * fallback cadence by its age, since each ask costs a request while an old carrier rarely moves.
 */
export function carrierDue(ageMs: number, sinceReadMs: number): boolean {
  return ageMs < FRESH_AGE_MS || sinceReadMs >= fallbackCadence(ageMs);
}
