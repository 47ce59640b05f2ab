/**
 * What a simple poller remembers of the records it reads: each watched message's status, receipt and
 * send time, and the transitions a change implies (the same four kinds the monitor reports: `stuck`
 * as the engine defines it, still pending the threshold after it was sent). A record read in the
 * baseline is remembered silently (one already over the threshold then never fires `stuck`), as is a
 * record first met later that was sent before the baseline's reach (history a later page showed).
 */
import type { Detection } from '../../test/support/ground-truth';

interface Seen {
  pending: boolean;
  receiptDelivered: boolean;
  /** Its source time (ms), else when first read. */
  since: number;
  stuckFired: boolean;
}

/** Which records a poller watches: addresses (from or to, any case), or a predicate (routes). */
export type Watched = readonly string[] | ((r: Record<string, unknown>) => boolean);

export class TransitionTracker {
  private readonly seen = new Map<string, Seen>();
  private readonly mine: (r: Record<string, unknown>) => boolean;
  readonly detections: Detection[] = [];
  /** The baseline's reach (ms): records sent before it are history. */
  private historyBefore = -Infinity;

  /** `stuckMs`: the stuck threshold (absent: never `stuck`); `receipts` false: a message is followed until its delivery only (a route's). */
  constructor(
    watched: Watched,
    private readonly stuckMs = Infinity,
    private readonly receipts = true,
  ) {
    if (typeof watched === 'function') this.mine = watched;
    else {
      const set = new Set(watched.map((a) => a.toLowerCase()));
      this.mine = (r) => set.has(String(r.from).toLowerCase()) || set.has(String(r.to).toLowerCase());
    }
  }

  /** Called before the baseline's reads: records sent before `reachMs` are history whenever they are met. */
  baseline(reachMs: number): void {
    this.historyBefore = reachMs;
  }

  /** Notes one record as read at `now`; `silent` during the baseline. */
  observe(r: Record<string, unknown>, now: number, silent: boolean): void {
    if (!this.mine(r)) return;
    const id = String(r.messageId);
    const state = { pending: r.status === 'pending', receiptDelivered: r.receiptDelivered === true };
    const before = this.seen.get(id);
    const sent = (r.sourceTransaction as { timestamp?: number } | undefined)?.timestamp;
    if (!before && typeof sent === 'number' && sent * 1000 < this.historyBefore) silent = true;
    const since = before?.since ?? (typeof sent === 'number' ? sent * 1000 : now);
    this.seen.set(id, {
      pending: (before?.pending ?? true) && state.pending,
      receiptDelivered: (before?.receiptDelivered ?? false) || state.receiptDelivered,
      since,
      stuckFired: before?.stuckFired ?? (silent && now - since >= this.stuckMs),
    });
    if (silent) return;
    if (!before) this.detections.push({ id, kind: 'new', at: now });
    if ((!before || before.pending) && !state.pending) this.detections.push({ id, kind: 'left_pending', at: now });
    if (this.receipts && !before?.receiptDelivered && state.receiptDelivered) this.detections.push({ id, kind: 'receipt_delivered', at: now });
  }

  /** After a cycle's reads: `stuck` for each message still pending the threshold after it was sent. */
  sweep(now: number): void {
    for (const [id, s] of this.seen)
      if (s.pending && !s.stuckFired && now - s.since >= this.stuckMs) {
        s.stuckFired = true;
        this.detections.push({ id, kind: 'stuck', at: now });
      }
  }
}

/** A record's time on the list (ms): its source transaction's, else its destination's (a source not indexed). */
export function listTime(r: Record<string, unknown>): number {
  const tx = (r.sourceTransaction ?? r.destinationTransaction) as { timestamp?: number } | undefined;
  return (tx?.timestamp ?? 0) * 1000;
}
