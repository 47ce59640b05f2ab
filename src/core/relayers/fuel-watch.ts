/**
 * Keeps the fuel of watched relayers per chain: reads each balance through the Data API client at
 * most once per `readEveryMs` (not every poll cycle, so it fits the request budget), remembers the
 * deliveries' gas from the records the poller hands in, and decides the out-of-gas alert.
 */
import type { Clock } from '../../shared/clock';
import { chainByBlockchainId, chainLabel } from '../../shared/chains';
import type { TeleporterMessage } from '../../shared/messages';
import type { DataApiClient } from '../data-api/client';
import { decideFuelAlert, fuelFigures, type FuelAlertChange, type FuelAlertState, type FuelFigures, type GasPayment } from './fuel';
import { DAY_MS } from '../../shared/time';

interface FuelTarget {
  relayer: string;
  /** cb58 blockchain ID of the chain its wallet pays on. */
  blockchainId: string;
  name: string;
}

interface FuelReading {
  target: FuelTarget;
  figures: FuelFigures;
  usdPrice?: number;
  readAt: number;
}

interface Entry {
  target: FuelTarget;
  payments: Map<string, GasPayment>;
  lastReadAt: number | null;
  reading: FuelReading | null;
  alert: FuelAlertState;
}

export class FuelWatch {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly client: DataApiClient,
    private readonly clock: Clock,
    private readonly o: { readEveryMs: number; thresholdHours: number },
  ) {}

  watch(target: FuelTarget): void {
    const key = keyOf(target.relayer, target.blockchainId);
    if (!this.entries.has(key))
      this.entries.set(key, {
        target: { ...target, relayer: target.relayer.toLowerCase() },
        payments: new Map(),
        lastReadAt: null,
        reading: null,
        alert: { firing: false },
      });
  }

  /** Records from a poll: every delivery by a watched relayer on a watched chain is a payment (deduplicated by message ID). */
  observe(messages: readonly TeleporterMessage[]): void {
    for (const m of messages) {
      if (m.status === 'unknown' || m.status === 'pending') continue;
      const tx = m.destinationTransaction;
      const e = this.entries.get(keyOf(tx.delivererAddress, m.destinationBlockchainId));
      if (e) e.payments.set(m.messageId, { at: tx.timestamp * 1000, wei: BigInt(tx.gasSpent) });
    }
  }

  /** Reads the balances that are due; returns the alert changes (a failed read changes nothing and is retried next time). */
  async readDue(signal?: AbortSignal): Promise<{ target: FuelTarget; change: NonNullable<FuelAlertChange> }[]> {
    const now = this.clock.now();
    const changes: { target: FuelTarget; change: NonNullable<FuelAlertChange> }[] = [];
    for (const e of this.entries.values()) {
      if (e.lastReadAt !== null && now - e.lastReadAt < this.o.readEveryMs) continue;
      const chain = chainByBlockchainId(e.target.blockchainId);
      const read = await this.client.getNativeBalance(chain?.evmChainId ?? e.target.blockchainId, e.target.relayer, signal);
      if (!read.ok) continue;
      e.lastReadAt = now;
      for (const [id, p] of e.payments) if (p.at < now - DAY_MS) e.payments.delete(id);
      const payments = [...e.payments.values()];
      const figures = fuelFigures(read.value.balance, payments, now);
      e.reading = { target: e.target, figures, readAt: now, ...(read.value.usdPrice !== undefined ? { usdPrice: read.value.usdPrice } : {}) };
      const d = decideFuelAlert(e.alert, { figures, payments, at: now }, this.o.thresholdHours, {
        relayer: e.target.name,
        chain: chainLabel(e.target.blockchainId),
      });
      e.alert = d.state;
      if (d.change) changes.push({ target: e.target, change: d.change });
    }
    return changes;
  }

  readings(): FuelReading[] {
    return [...this.entries.values()].flatMap((e) => (e.reading ? [e.reading] : []));
  }
}

const keyOf = (relayer: string, blockchainId: string) => `${relayer.toLowerCase()}|${blockchainId}`;
