/**
 * Deliveries and receipts hinted by the messages that carry receipts back. In Teleporter, when a
 * message A→B is delivered on B its receipt is queued there; a later message B→A sent by the same
 * messenger contract names its nonce in `receipts[]`, and when that carrier is delivered on A the
 * original's receipt is delivered. A carrier is only a HINT: it says which original to ask for by ID
 * now, never what the original's record holds (only the API's own answer goes into the cache):
 * - a delivered carrier naming an original awaiting its receipt: the original is asked for by ID;
 * - any carrier, pending or not, naming an original we still hold as pending: asked for by ID too;
 * - pending carriers nobody watches (a relayer's receipt re-sends) are remembered and asked for by ID
 *   until delivered, on a cadence by their age (recheck-cadence.ts: every cycle while fresh, then a
 *   quarter of their age); watched ones are re-checked as pending messages anyway.
 * An original is named by route (reversed), messenger contract address and nonce: nonces repeat
 * across messenger versions on one route, a message ID never does.
 */
import type { Clock } from '../../shared/clock';
import { CARRIER_ORIGINAL_READS, FORGET_PENDING_MS } from '../../shared/policy';
import { contractAddress, effectiveStatus, messageTimestamp, rawRecord, type TeleporterMessage } from '../../shared/messages';
import type { Network } from '../../shared/validators';
import type { CachedMessages } from '../store';
import { carrierDue, fallbackCadence } from './recheck-cadence';

/*
 * An original a carrier named is asked for every cycle until it was read CARRIER_ORIGINAL_READS times (a
 * read cut short by an error does not count), then on the fallback cadence by the time since it was
 * named, until it moved on or is no longer tracked: where every carrier is read (carrier-coverage.ts)
 * nothing else re-checks it.
 */

/** An original as a carrier names it: its route, messenger contract (lower case) and nonce, and all four as one key. */
interface Name {
  key: string;
  source: string;
  destination: string;
  contract: string;
  nonce: string;
}

const nameOf = (source: unknown, destination: unknown, contract: string | undefined, nonce: unknown): Name => {
  const n = { source: String(source), destination: String(destination), contract: (contract ?? '').toLowerCase(), nonce: String(nonce) };
  return { ...n, key: `${n.source}|${n.destination}|${n.contract}|${n.nonce}` };
};

interface PendingCarrier {
  network: Network;
  /** Its sort timestamp (s). */
  ts: number | null;
  /** The originals it names. */
  names: Name[];
  /** When first seen pending (ms): it is forgotten FORGET_PENDING_MS later. */
  seenAt: number;
  /** When last read still pending, on a page or by ID (ms): its cadence counts from there. */
  readAt: number;
}

/** An original a carrier named: held as pending or awaiting its receipt, its reads since, and its sort timestamp (s). */
interface Asked {
  pending: boolean;
  reads: number;
  /** When named, and when last read (ms). */
  namedAt: number;
  readAt: number;
  ts: number | null;
}

interface Open {
  messageId: string;
  pending: boolean;
  ts: number | null;
}

export class ReceiptCarriers {
  /**
   * What this network's poll read without its receipt, by name (route|contract|nonce): the cache may not
   * hold it yet. Anything else open is looked up in the cache by name (never all of it held in memory).
   */
  private readonly seen = new Map<string, Open>();
  /** Names a delivered carrier settled this poll: not asked for twice. */
  private readonly settled = new Set<string>();
  /** Carriers seen still pending, by carrier ID: asked for by ID (when nobody tracks them) until delivered. */
  private readonly pendingCarriers = new Map<string, PendingCarrier>();
  /** Originals a carrier named (held as pending: proved delivered; awaiting: receipt back), by network: asked for by ID, with their reads since. */
  private originalsToAsk = new Map<Network, Map<string, Asked>>();

  constructor(
    private readonly clock: Clock,
    private readonly messages: CachedMessages,
  ) {}

  /** At the start of a network's poll: what the last one read is in the cache now. */
  refresh(): void {
    this.seen.clear();
    this.settled.clear();
  }

  /** The open message a carrier names: read this poll, else tracked in the cache (undefined: none, or settled this poll). */
  private openOf(n: Name): Open | undefined {
    if (this.settled.has(n.key)) return undefined;
    const read = this.seen.get(n.key);
    if (read) return read;
    const o = this.messages.openByNonce(n.source, n.destination, n.nonce).find((m) => m.contract.toLowerCase() === n.contract);
    return o && { messageId: o.messageId, pending: o.pending, ts: o.sortTs };
  }

  /** Learns from messages just observed which originals to ask for (nothing is written: see toAsk). */
  learn(messages: readonly TeleporterMessage[], network: Network): void {
    const asked = this.originalsToAsk.get(network);
    for (const m of messages) {
      const raw = rawRecord(m);
      const contract = contractAddress(m);
      const delivered = effectiveStatus(m) !== 'pending';
      const ts = messageTimestamp(m) ?? null;
      const ask = asked?.get(m.messageId);
      if (ask) {
        ask.reads++;
        ask.readAt = this.clock.now();
      }
      if (raw.receiptDelivered !== true)
        this.seen.set(nameOf(raw.sourceBlockchainId, raw.destinationBlockchainId, contract, raw.messageNonce).key, {
          messageId: m.messageId,
          pending: !delivered,
          ts,
        });
      const receipts = Array.isArray(raw.receipts) ? (raw.receipts as { receivedMessageNonce?: unknown }[]) : [];
      // Without its messenger contract a carrier names nothing for sure.
      if (!receipts.length || contract === undefined) continue;
      // The originals went the other way: from the carrier's destination to its source, through the same messenger.
      const names = receipts.map((r) => nameOf(raw.destinationBlockchainId, raw.sourceBlockchainId, contract, r.receivedMessageNonce));
      const known = this.pendingCarriers.get(m.messageId);
      if (delivered) this.pendingCarriers.delete(m.messageId);
      else if (known) known.readAt = this.clock.now();
      else this.pendingCarriers.set(m.messageId, { network, ts, names, seenAt: this.clock.now(), readAt: this.clock.now() });
      for (const n of names) {
        const o = this.openOf(n);
        if (!o || (!o.pending && !delivered)) continue; // a pending carrier has not brought the receipt back yet
        if (!o.pending) this.settled.add(n.key);
        this.noteOriginal(network, o.messageId, o.pending, o.ts);
      }
    }
  }

  /**
   * IDs to ask for by ID on `network`: originals a carrier named that are still open as they were
   * (every cycle until read CARRIER_ORIGINAL_READS times, then on the fallback cadence), and remembered pending carriers nobody watches that name an
   * open original, when due by their age (carrierDue; the rest are forgotten). One sorted at or above `rereadFromTs` (s) is not asked for:
   * the firehose's next full read below the cursor reads it anyway, within 2 intervals, and that read
   * counts as one of its reads (null: no such read on this network, ask for every one).
   */
  toAsk(network: Network, rereadFromTs: number | null = null): string[] {
    const reread = (ts: number | null) => rereadFromTs !== null && ts !== null && ts >= rereadFromTs;
    const now = this.clock.now();
    const out: string[] = [];
    const asked = this.originalsToAsk.get(network);
    for (const [id, a] of asked ?? []) {
      const st = this.messages.state(id);
      // Moved on (delivered, its receipt back, or no longer tracked): nothing left to ask.
      if (!st?.tracked || (a.pending && st.status !== 'pending')) asked?.delete(id);
      else if (!reread(a.ts) && (a.reads < CARRIER_ORIGINAL_READS || now - a.readAt >= fallbackCadence(now - a.namedAt))) out.push(id);
    }
    for (const [id, c] of this.pendingCarriers) {
      if (c.network !== network) continue;
      if (now - c.seenAt > FORGET_PENDING_MS || !c.names.some((n) => this.openOf(n) !== undefined)) this.pendingCarriers.delete(id);
      else if (!this.isTracked(id) && !reread(c.ts) && this.carrierDue(c, now) && !out.includes(id)) out.push(id);
    }
    return out;
  }

  /** Its age counts from its sort timestamp (else from when first seen), its cadence from its last read. */
  private carrierDue(c: PendingCarrier, now: number): boolean {
    return carrierDue(now - (c.ts !== null ? c.ts * 1000 : c.seenAt), now - c.readAt);
  }

  /** Still tracked: pending, or awaiting its receipt. */
  private isTracked(messageId: string): boolean {
    return this.messages.state(messageId)?.tracked === true;
  }

  private noteOriginal(network: Network, id: string, pending: boolean, ts: number | null): void {
    const asked = this.originalsToAsk.get(network) ?? new Map<string, Asked>();
    this.originalsToAsk.set(network, asked);
    const now = this.clock.now();
    asked.set(id, { pending, reads: 0, namedAt: now, readAt: now, ts });
  }
}
