/**
 * The relayers' receipt work: after a delivery its receipt joins the route's queue (ordinary traffic
 * back carries it), or a receipt-only carrier is sent at once; every RELAY_CHECK_MS the relayers send
 * back receipts still missing RECEIPT_RESEND_MS after delivery with `sendSpecifiedReceipts`.
 */
import { MESSENGERS } from './catalog';
import { drawMessage, MAX_DELIVERY_MS, type DrawContext } from './draw-message';
import type { MessagePlan } from './message-plan';
import { ReceiptRoutes } from './receipt-routes';
import type { EventBody } from './sim-types';
import { MINUTE_MS } from '../shared/time';

const RECEIPT_RESEND_MS = 3 * MINUTE_MS;
const RELAY_CHECK_MS = 30_000;
/** How long a finished record may have to wait for its receipt at most (resend wait, check, delivery). */
export const MAX_RECEIPT_MS = RECEIPT_RESEND_MS + RELAY_CHECK_MS + MAX_DELIVERY_MS;
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

export interface ReceiptRelayOptions {
  draw: DrawContext;
  /** Delays are divided by this. */
  speed: number;
  /** The relayers re-send missing receipts (the world's `receiptResends`). */
  resends: boolean;
  push: (ev: EventBody) => void;
  /** A carrier the relayers sent (the simulator writes and delivers it as any message). */
  send: (plan: MessagePlan) => void;
}

export class ReceiptRelay {
  private readonly receipts = new ReceiptRoutes();
  private checkScheduled = false;

  constructor(private readonly o: ReceiptRelayOptions) {}

  /** The receipts an ordinary message sent now carries: those queued on its route. */
  carriedBy(plan: MessagePlan): MessagePlan[] {
    return this.receipts.take(plan.messenger, plan.source.blockchainId, plan.destination.blockchainId);
  }

  /** The originals whose receipt the delivered `plan` brings (each settles once). */
  settledBy(plan: MessagePlan): MessagePlan[] {
    return this.receipts.settle(plan);
  }

  /** `plan` was delivered at `at`: its receipt goes back on a carrier of its own, or waits on the route's queue. */
  delivered(plan: MessagePlan, at: number): void {
    if (plan.receiptDelayMs !== undefined) {
      this.sendReceipts(at, plan.destination.blockchainId, plan.source.blockchainId, [plan], plan.receiptDelayMs);
      return;
    }
    this.receipts.queue(plan, at, this.o.resends && plan.to !== ZERO_ADDRESS);
    this.scheduleCheck(at);
  }

  /** The relayers' periodic check (a `relay` event): re-send what is overdue. */
  check(at: number): void {
    this.checkScheduled = false;
    for (const r of this.receipts.overdue(at, RECEIPT_RESEND_MS / this.o.speed)) this.sendReceipts(at, r.source, r.destination, r.originals);
    this.scheduleCheck(at);
  }

  /** A relayer's `sendSpecifiedReceipts`: a message with no payload to the zero address, carrying the receipts named. */
  private sendReceipts(at: number, source: string, destination: string, originals: MessagePlan[], deliveryDelayMs?: number): void {
    const from = originals[0]!.destTx.rewardRedeemer;
    const plan = drawMessage(this.o.draw, at, {
      source,
      destination,
      // The messenger that sent the originals sends their receipts back.
      messengerVersion: originals[0]!.messenger === MESSENGERS[1] ? 2 : 1,
      from,
      to: ZERO_ADDRESS,
      outcome: 'normal',
      ...(deliveryDelayMs !== undefined ? { deliveryDelayMs } : {}),
    });
    plan.data = '0x';
    plan.carries = originals;
    this.o.send(plan);
  }

  private scheduleCheck(at: number): void {
    if (this.checkScheduled || this.receipts.waitingCount === 0) return;
    this.checkScheduled = true;
    this.o.push({ at: at + RELAY_CHECK_MS / this.o.speed, kind: 'relay' });
  }
}
