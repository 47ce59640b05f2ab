/**
 * Receipts learned from the messages that carry them back. In Teleporter a message A→B has its receipt
 * delivered when a later message B→A naming its nonce in `receipts[]` is delivered on A, and the Data
 * API shows the original with `receiptDelivered: true` from then on. So a delivered carrier seen on any
 * page settles the tracked originals it names: each one's cached record is patched (only
 * `receiptDelivered` changes, exactly as the service now has it) and goes through the engine like a
 * page, with no request per original. Pending carriers nobody watches (a relayer's receipt re-sends)
 * are remembered and asked for by ID until delivered; watched ones are re-checked as pending messages.
 */
import type { Clock } from '../../shared/clock';
import type { Transition } from '../../shared/contract';
import { effectiveStatus, parseMessage, rawRecord, type TeleporterMessage } from '../../shared/messages';
import type { Network } from '../../shared/validators';
import type { Db } from '../store';
import type { TrackedMessage } from '../store/message-cache';
import { AwaitingReceipts } from '../store/awaiting-receipts';
import type { TransitionEngine } from '../watch/engine';
import { isDue } from './plan';

/** A remembered pending carrier is dropped after this long (it is stuck; the fallback cadence covers its originals). */
const FORGET_PENDING_MS = 3600_000;

/** Where carriers are seen (the firehose), a delivered message awaiting its receipt is re-checked only this rarely. */
export const RECEIPT_FALLBACK_MS = 5 * 60_000;

const keyOf = (source: unknown, destination: unknown, nonce: unknown) => `${String(source)}|${String(destination)}|${String(nonce)}`;

interface PendingCarrier {
  network: Network;
  /** Keys (route|nonce) of the originals it names. */
  names: string[];
  seenAt: number;
}

export class ReceiptCarriers {
  private queries: AwaitingReceipts | null = null;
  private db: Db | null = null;
  /** route|nonce → ID of delivered messages awaiting their receipt: the cache at refresh, plus what pages showed since. */
  private awaiting = new Map<string, string>();
  private readonly pending = new Map<string, PendingCarrier>();

  constructor(private readonly clock: Clock) {}

  /** Reloads the cached messages awaiting their receipt (at the start of a network's poll). */
  refresh(db: Db): void {
    if (this.db !== db || !this.queries) {
      this.queries = new AwaitingReceipts(db);
      this.db = db;
    }
    this.awaiting = new Map(this.queries.list().map((a) => [keyOf(a.sourceChain, a.destinationChain, a.nonce), a.messageId]));
  }

  /**
   * Learns from messages just observed: delivered carriers settle the originals they name (returns
   * the transitions the engine logged for them); pending carriers are remembered.
   */
  learn(messages: readonly TeleporterMessage[], engine: TransitionEngine, network: Network): Transition[] {
    const q = this.queries;
    if (!q) return [];
    const settled: TeleporterMessage[] = [];
    for (const m of messages) {
      const raw = rawRecord(m);
      const delivered = effectiveStatus(m) !== 'pending';
      if (delivered && raw.receiptDelivered !== true) this.awaiting.set(keyOf(raw.sourceBlockchainId, raw.destinationBlockchainId, raw.messageNonce), m.messageId);
      const receipts = Array.isArray(raw.receipts) ? (raw.receipts as { receivedMessageNonce?: unknown }[]) : [];
      if (!receipts.length) continue;
      // The originals went the other way: from the carrier's destination to its source.
      const names = receipts.map((r) => keyOf(raw.destinationBlockchainId, raw.sourceBlockchainId, r.receivedMessageNonce));
      if (!delivered) {
        if (!this.pending.has(m.messageId)) this.pending.set(m.messageId, { network, names, seenAt: this.clock.now() });
        continue;
      }
      this.pending.delete(m.messageId);
      for (const k of names) {
        const id = this.awaiting.get(k);
        if (id === undefined) continue;
        this.awaiting.delete(k);
        const rec = q.get(id);
        const patched = rec ? parseMessage({ ...(JSON.parse(rec.raw) as Record<string, unknown>), receiptDelivered: true }) : null;
        if (patched) settled.push(patched);
      }
    }
    return settled.length ? engine.observe(settled, network) : [];
  }

  /**
   * Remembered pending carriers of `network` to ask for by ID: those nobody watches that name an
   * original still awaiting its receipt. The rest are forgotten.
   */
  toAsk(network: Network): string[] {
    const q = this.queries;
    const now = this.clock.now();
    const out: string[] = [];
    for (const [id, c] of this.pending) {
      if (c.network !== network) continue;
      if (!q || now - c.seenAt > FORGET_PENDING_MS || !c.names.some((k) => this.awaiting.has(k))) this.pending.delete(id);
      else if (!q.isTracked(id)) out.push(id);
    }
    return out;
  }
}

/**
 * Is a tracked message due for a re-check? Where carriers are seen (`carriersSeen`: the network's
 * firehose is read), a delivered message awaiting its receipt only as a fallback for a carrier missed
 * (a restart, a scan cut short): every RECEIPT_FALLBACK_MS or a quarter of its age, at most hourly.
 * Everything else on isDue's cadence.
 */
export function recheckDue(t: TrackedMessage, ageMs: number, sinceSeenMs: number, intervalMs: number, liveMs: number, carriersSeen: boolean): boolean {
  if (!carriersSeen || t.status === 'pending' || t.receiptDelivered) return isDue(ageMs, sinceSeenMs, intervalMs, liveMs);
  const cadence = Math.min(3600_000, Math.max(RECEIPT_FALLBACK_MS, ageMs / 4));
  return sinceSeenMs >= cadence - intervalMs / 2;
}
