/**
 * One cycle's balance reads: each wallet whose read is due (fuel-reads.ts) is read through its network's
 * Data API client (counted in the plan's budget), the read or its redacted failure stored, and a
 * successful read handed to the fuel alert. Nothing is asked while the source, or the wallet's chain, is
 * not read now.
 */
import { chainByBlockchainId } from '../../shared/chains';
import type { Network } from '../../shared/validators';
import type { DataApiClient } from '../data-api/client';
import type { Sight } from '../sources/sight';
import type { FuelRead, RelayerFuelStore } from '../store/relayer-fuel';
import { walletKey, type WalletPayments } from './economics';
import { estimatedHoursToEmpty, fuelFigures } from './fuel';
import { fuelEpisodeKey, type FuelAlert } from './fuel-alert';
import { readDue, type ReadCadence } from './fuel-reads';

export class BalanceReads {
  constructor(
    private readonly d: {
      fuel: Pick<RelayerFuelStore, 'recordRead' | 'recordFailure'>;
      /** The Data API client of a network (null: no data source yet). */
      client: (network: Network) => DataApiClient | null;
      /** Redacts secrets from a read's error before it is stored. */
      redact: (s: string) => string;
      sight: Sight;
      cadence: ReadCadence;
      thresholdHours: () => number;
      alert: FuelAlert;
    },
  ) {}

  /** Reads the wallets due, one after another; `before`: the stored reads by wallet at the cycle's start. */
  async readDue(wallets: readonly WalletPayments[], before: ReadonlyMap<string, FuelRead>, now: number): Promise<void> {
    if (!this.d.sight.seeing()) return;
    const firing = this.d.alert.firing();
    const thresholdHours = this.d.thresholdHours();
    for (const w of wallets) {
      const r = before.get(walletKey(w.relayer, w.blockchainId));
      const wallet = { hoursToEmpty: estimatedHoursToEmpty(r, w.payments, now), thresholdHours, firing: firing.has(fuelEpisodeKey(w.relayer, w.blockchainId)) };
      if (this.d.sight.sees(w.blockchainId) && readDue(r, now, this.d.cadence, wallet)) await this.read(w, r, now);
    }
  }

  private async read(w: WalletPayments, previous: FuelRead | undefined, now: number): Promise<void> {
    const client = this.d.client(w.watched.network);
    if (!client) return;
    const chain = chainByBlockchainId(w.blockchainId);
    const read = await client.getNativeBalance(chain?.evmChainId ?? w.blockchainId, w.relayer);
    if (!read.ok) {
      this.d.fuel.recordFailure({ relayer: w.relayer, blockchainId: w.blockchainId, error: this.d.redact(read.error.message), at: now });
      return;
    }
    const b = read.value;
    this.d.fuel.recordRead({
      relayer: w.relayer,
      blockchainId: w.blockchainId,
      balance: b.balance,
      symbol: b.symbol,
      decimals: b.decimals,
      usdPrice: b.usdPrice ?? null,
      at: now,
    });
    const lastRead = previous?.balance != null && previous.readAt !== null ? { balance: previous.balance, at: previous.readAt } : undefined;
    this.d.alert.onRead(w, lastRead, fuelFigures(b.balance, w.payments, now), now);
  }
}
