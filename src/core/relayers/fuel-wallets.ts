/**
 * Which wallets the fuel figures cover: a watched relayer's wallet with deliveries in the last day, or one
 * read before whose address is still watched (so a quiet wallet keeps its figures). Reads of the others
 * are forgotten.
 */
import type { WatchedRelayer } from '../../shared/relayers';
import type { RelayerFuelStore, FuelRead } from '../store/relayer-fuel';
import { walletKey, type WalletPayments } from './economics';

/** The stored reads of the current source by wallet (walletKey). */
export const readsByWallet = (fuel: Pick<RelayerFuelStore, 'all'>): Map<string, FuelRead> =>
  new Map(fuel.all().map((r) => [walletKey(r.relayer, r.blockchainId), r]));

/** The wallets with deliveries (`wallets`, from the day's pass) and those read before whose address is a watched relayer. */
export function fuelWallets(relayers: readonly WatchedRelayer[], wallets: readonly WalletPayments[], reads: ReadonlyMap<string, FuelRead>): WalletPayments[] {
  const out = new Map<string, WalletPayments>(wallets.map((w) => [walletKey(w.relayer, w.blockchainId), { ...w }]));
  for (const [key, r] of reads) {
    if (out.has(key)) continue;
    const watched = relayers.find((x) => x.address.toLowerCase() === r.relayer);
    if (watched) out.set(key, { relayer: r.relayer, watched, blockchainId: r.blockchainId, payments: [] });
  }
  return [...out.values()];
}

/** Forgets the reads (`reads`: those stored) of wallets not among `wallets`. */
export function forgetReads(fuel: Pick<RelayerFuelStore, 'remove'>, wallets: readonly WalletPayments[], reads: ReadonlyMap<string, FuelRead>): void {
  const keep = new Set(wallets.map((w) => walletKey(w.relayer, w.blockchainId)));
  for (const [key, r] of reads) if (!keep.has(key)) fuel.remove(r.relayer, r.blockchainId);
}
