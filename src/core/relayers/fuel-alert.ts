/**
 * The fuel alert (`fuel_low`) of each watched wallet as episodes: judged on each successful balance read
 * (fuel.ts' decideFuelAlert: it fires near empty and resolves only on a refill), held while the wallet's
 * chain is not read (sources/sight.ts), closed quietly once the wallet is no longer watched.
 */
import { chainLabel, type OwnChain } from '../../shared/chains';
import { shortHex } from '../../shared/format';
import { EPISODE_WORDS } from '../../shared/vocabulary';
import type { Sight } from '../sources/sight';
import type { WalletPayments } from './economics';
import type { EpisodeDoor } from './episodes';
import { decideFuelAlert, type FuelFigures } from './fuel';

export const fuelEpisodeKey = (relayer: string, blockchainId: string) => `fuel:${relayer.toLowerCase()}:${blockchainId}`;

export class FuelAlert {
  constructor(
    private readonly d: {
      door: EpisodeDoor;
      sight: Sight;
      thresholdHours: () => number;
      /** Your own nodes' chains while they are the data source (a chain is named by its name). */
      ownChains: () => readonly OwnChain[];
    },
  ) {}

  /** The keys (fuelEpisodeKey) of the wallets whose alert fires now. */
  firing(): Set<string> {
    return new Set(this.d.door.open(['fuel_low']).keys());
  }

  /** A successful read of a wallet: `lastRead` is the read before it (to tell a refill), `figures` this read's. */
  onRead(w: WalletPayments, lastRead: { balance: bigint; at: number } | undefined, figures: FuelFigures, now: number): void {
    // A wallet on a chain not read now is held (its payments there are not seen).
    if (!this.d.sight.sees(w.blockchainId)) return;
    const key = fuelEpisodeKey(w.relayer, w.blockchainId);
    const open = this.d.door.open(['fuel_low']).get(key);
    const name = w.watched.label || shortHex(w.watched.address);
    const chain = chainLabel(w.blockchainId, this.d.ownChains());
    const state = { firing: open !== undefined, ...(lastRead ? { lastRead } : {}) };
    const { change } = decideFuelAlert(state, { figures, payments: w.payments, at: now }, this.d.thresholdHours(), { relayer: name, chain });
    if (!change) return;
    if (change.kind === 'fire') {
      const episode = {
        key,
        kind: 'fuel_low' as const,
        network: w.watched.network,
        subject: `${name} on ${chain}`,
        sourceChain: '',
        destinationChain: w.blockchainId,
        startedAt: now,
        relayer: w.watched.address,
      };
      this.d.door.fire(episode, now, { title: EPISODE_WORDS.fuel_low.fire(episode.subject), body: change.text });
    } else if (open) {
      this.d.door.resolve(open, now, { title: EPISODE_WORDS.fuel_low.resolve(open.subject), body: change.text });
    }
  }

  /** Wallets no longer watched (not among `wallets`): their alert closed without an announcement. */
  closeUnwatched(wallets: readonly WalletPayments[], now: number): void {
    const keep = new Set(wallets.map((w) => fuelEpisodeKey(w.relayer, w.blockchainId)));
    for (const [key, e] of this.d.door.open(['fuel_low'])) if (!keep.has(key)) this.d.door.resolve(e, now, null);
  }
}
