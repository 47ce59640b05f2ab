/**
 * Deliveries and receipts learned from the messages that carry receipts back. In Teleporter, when a
 * message A→B is delivered on B its receipt is queued there; a later message B→A names its nonce in
 * `receipts[]`, and when that carrier is delivered on A the original's receipt is delivered (the Data
 * API shows `receiptDelivered: true` from then on). So:
 * - a delivered carrier settles the tracked originals it names: each cached record is patched (only
 *   `receiptDelivered` changes, as the service now has it) and goes through the engine like a page,
 *   with no request per original;
 * - any carrier, pending or not, naming an original we still hold as pending proves that original was
 *   delivered: it is asked for by ID (its destination transaction cannot be made up);
 * - pending carriers nobody watches (a relayer's receipt re-sends) are remembered and asked for by ID
 *   until delivered; watched ones are re-checked as pending messages anyway.
 */
import type { Clock } from '../../shared/clock';
import type { Transition } from '../../shared/contract';
import { effectiveStatus, parseMessage, rawRecord, type TeleporterMessage } from '../../shared/messages';
import type { Network } from '../../shared/validators';
import type { CachedMessages } from '../store';
import type { TransitionEngine } from '../watch/engine';

/** A remembered pending carrier is dropped after this long (it is stuck; the fallback cadence covers its originals). */
const FORGET_PENDING_MS = 3600_000;

const keyOf = (source: unknown, destination: unknown, nonce: unknown) => `${String(source)}|${String(destination)}|${String(nonce)}`;

interface PendingCarrier {
  network: Network;
  /** Keys (route|nonce) of the originals it names. */
  names: string[];
  seenAt: number;
}

interface Open {
  messageId: string;
  pending: boolean;
}

export class ReceiptCarriers {
  /** route|nonce → open message: the tracked ones at refresh, plus what pages showed since. */
  private open = new Map<string, Open>();
  private readonly pending = new Map<string, PendingCarrier>();
  /** Messages held as pending that a carrier proved delivered, by network. */
  private delivered = new Map<Network, Set<string>>();

  constructor(
    private readonly clock: Clock,
    private readonly messages: CachedMessages,
  ) {}

  /** Reloads the tracked messages (at the start of a network's poll). */
  refresh(): void {
    this.open = new Map(
      this.messages.openByRoute().map((a) => [keyOf(a.sourceChain, a.destinationChain, a.nonce), { messageId: a.messageId, pending: a.pending }]),
    );
  }

  /**
   * Learns from messages just observed: delivered carriers settle the originals they name (returns
   * the transitions the engine logged for them); originals still held as pending are noted for asking.
   */
  learn(messages: readonly TeleporterMessage[], engine: TransitionEngine, network: Network): Transition[] {
    const settled: TeleporterMessage[] = [];
    for (const m of messages) {
      const raw = rawRecord(m);
      const delivered = effectiveStatus(m) !== 'pending';
      if (raw.receiptDelivered !== true)
        this.open.set(keyOf(raw.sourceBlockchainId, raw.destinationBlockchainId, raw.messageNonce), { messageId: m.messageId, pending: !delivered });
      const receipts = Array.isArray(raw.receipts) ? (raw.receipts as { receivedMessageNonce?: unknown }[]) : [];
      if (!receipts.length) continue;
      // The originals went the other way: from the carrier's destination to its source.
      const names = receipts.map((r) => keyOf(raw.destinationBlockchainId, raw.sourceBlockchainId, r.receivedMessageNonce));
      if (!delivered && !this.pending.has(m.messageId)) this.pending.set(m.messageId, { network, names, seenAt: this.clock.now() });
      if (delivered) this.pending.delete(m.messageId);
      for (const k of names) {
        const o = this.open.get(k);
        if (!o) continue;
        if (o.pending) this.noteDelivered(network, o.messageId);
        else if (delivered) {
          this.open.delete(k);
          const st = this.messages.state(o.messageId);
          const cached = st?.tracked && st.status !== 'pending' && !st.receiptDelivered ? this.messages.get(o.messageId) : null;
          const patched = cached ? parseMessage({ ...rawRecord(cached.message), receiptDelivered: true }) : null;
          if (patched) settled.push(patched);
        }
      }
    }
    return settled.length ? engine.observe(settled, network) : [];
  }

  /**
   * IDs to ask for by ID on `network`: messages still held as pending that a carrier proved
   * delivered, and remembered pending carriers nobody watches that name an open original (the rest
   * are forgotten).
   */
  toAsk(network: Network): string[] {
    const now = this.clock.now();
    const out = [...(this.delivered.get(network) ?? [])].filter((id) => this.openState(id) === 'pending');
    this.delivered.delete(network);
    for (const [id, c] of this.pending) {
      if (c.network !== network) continue;
      if (now - c.seenAt > FORGET_PENDING_MS || !c.names.some((k) => this.open.has(k))) this.pending.delete(id);
      else if (this.openState(id) === null) out.push(id);
    }
    return out;
  }

  /** 'pending' or 'awaiting' (its receipt) for a tracked message, else null (not cached, or closed). */
  private openState(messageId: string): 'pending' | 'awaiting' | null {
    const st = this.messages.state(messageId);
    return st?.tracked ? (st.status === 'pending' ? 'pending' : 'awaiting') : null;
  }

  private noteDelivered(network: Network, id: string): void {
    const set = this.delivered.get(network);
    if (set) set.add(id);
    else this.delivered.set(network, new Set([id]));
  }
}
