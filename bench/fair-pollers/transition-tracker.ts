/**
 * What a simple poller remembers of the records it reads: each watched message's status and receipt,
 * and the transitions a change implies (the same three kinds the monitor reports). A record read in the
 * baseline is remembered silently.
 */
import type { Detection } from '../../test/support/ground-truth';

interface Seen {
  pending: boolean;
  receiptDelivered: boolean;
}

export class TransitionTracker {
  private readonly seen = new Map<string, Seen>();
  private readonly watched: Set<string>;
  readonly detections: Detection[] = [];

  constructor(watched: readonly string[]) {
    this.watched = new Set(watched.map((a) => a.toLowerCase()));
  }

  /** Notes one record as read at `now`; `silent` during the baseline. */
  observe(r: Record<string, unknown>, now: number, silent: boolean): void {
    if (!this.watched.has(String(r.from).toLowerCase()) && !this.watched.has(String(r.to).toLowerCase())) return;
    const id = String(r.messageId);
    const state = { pending: r.status === 'pending', receiptDelivered: r.receiptDelivered === true };
    const before = this.seen.get(id);
    this.seen.set(id, { pending: (before?.pending ?? true) && state.pending, receiptDelivered: (before?.receiptDelivered ?? false) || state.receiptDelivered });
    if (silent) return;
    if (!before) this.detections.push({ id, kind: 'new', at: now });
    if ((!before || before.pending) && !state.pending) this.detections.push({ id, kind: 'left_pending', at: now });
    if (!before?.receiptDelivered && state.receiptDelivered) this.detections.push({ id, kind: 'receipt_delivered', at: now });
  }
}

/** A record's time on the list (ms): its source transaction's, else its destination's (a source not indexed). */
export function listTime(r: Record<string, unknown>): number {
  const tx = (r.sourceTransaction ?? r.destinationTransaction) as { timestamp?: number } | undefined;
  return (tx?.timestamp ?? 0) * 1000;
}
