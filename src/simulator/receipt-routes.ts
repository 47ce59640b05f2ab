/**
 * Receipts as TeleporterMessenger and its ReceiptQueue handle them: when a message A→B is delivered
 * on B, its receipt joins B's queue for A; the next message sent B→A carries up to five queued
 * receipts in `receipts[]`, and when that carrier is delivered on A, the originals it names have their
 * receipt (the Data API's `receiptDelivered`). Receipts sent again (`sendSpecifiedReceipts`) are
 * harmless: an original settled before is not settled twice.
 */
import type { MessagePlan } from './message-plan';

/** ReceiptQueue's `_MAXIMUM_RECEIPT_COUNT`: receipts one ordinary message carries at most. */
const MAX_RECEIPTS_PER_MESSAGE = 5;

/** A receipt queue belongs to one messenger on one route: another version's messages never carry its receipts. */
const routeKey = (messenger: string, sourceId: string, destinationId: string) => `${messenger}|${sourceId}>${destinationId}`;

interface OverdueRoute {
  /** Carrier's route: the originals' destination back to their source. */
  source: string;
  destination: string;
  messenger: string;
  originals: MessagePlan[];
}

export class ReceiptRoutes {
  /** Per carrier route (source>destination): receipts queued on the source chain for the destination. */
  private readonly queues = new Map<string, MessagePlan[]>();
  /** Resendable originals delivered and still without a receipt, with their delivery time. */
  private readonly waiting = new Map<MessagePlan, number>();
  private readonly resent = new Set<MessagePlan>();

  get waitingCount(): number {
    return this.waiting.size;
  }

  /**
   * An original delivered on its destination at `at`: its receipt waits there for a message back.
   * Only a `resendable` one is re-sent when overdue: a receipt-only message has no reward to claim
   * (re-sending its receipt would answer receipts with receipts forever); traffic back acknowledges it.
   */
  queue(original: MessagePlan, at: number, resendable: boolean): void {
    const key = routeKey(original.messenger, original.destination.blockchainId, original.source.blockchainId);
    const q = this.queues.get(key);
    if (q) q.push(original);
    else this.queues.set(key, [original]);
    if (resendable) this.waiting.set(original, at);
  }

  /** The receipts a message sent on this route takes with it (oldest first), leaving its queue. */
  take(messenger: string, sourceId: string, destinationId: string): MessagePlan[] {
    const key = routeKey(messenger, sourceId, destinationId);
    const q = this.queues.get(key);
    if (!q) return [];
    const taken = q.splice(0, MAX_RECEIPTS_PER_MESSAGE);
    if (!q.length) this.queues.delete(key);
    return taken;
  }

  /** A carrier was delivered: the originals it names that had no receipt yet, now settled. */
  settle(carrier: MessagePlan): MessagePlan[] {
    const out: MessagePlan[] = [];
    for (const o of carrier.carries) {
      if (o.receipted) continue;
      o.receipted = true;
      this.waiting.delete(o);
      this.resent.delete(o);
      out.push(o);
    }
    return out;
  }

  /**
   * Originals delivered at least `waitMs` before `now` and still without a receipt (their carrier is
   * never delivered, or no traffic goes back), not re-sent before: grouped by the route a re-send takes.
   */
  overdue(now: number, waitMs: number): OverdueRoute[] {
    const routes = new Map<string, OverdueRoute>();
    for (const [o, at] of this.waiting) {
      if (now - at < waitMs) break; // delivery order: the rest are younger
      if (this.resent.has(o)) continue;
      this.resent.add(o);
      const key = routeKey(o.messenger, o.destination.blockchainId, o.source.blockchainId);
      const r = routes.get(key) ?? { source: o.destination.blockchainId, destination: o.source.blockchainId, messenger: o.messenger, originals: [] };
      r.originals.push(o);
      routes.set(key, r);
    }
    return [...routes.values()];
  }
}
