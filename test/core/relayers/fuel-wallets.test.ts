/**
 * Which wallets the fuel figures cover (src/core/relayers/fuel-wallets.ts), over a real store's reads:
 * those with deliveries in the day, and those read before whose relayer is still watched (with no
 * payments); the reads of any other wallet forgotten.
 */
import { describe, expect, it } from 'vitest';
import type { WalletPayments } from '../../../src/core/relayers/economics';
import { forgetReads, fuelWallets, readsByWallet } from '../../../src/core/relayers/fuel-wallets';
import type { WatchedRelayer } from '../../../src/shared/relayers';
import { useStore } from '../store/store-rig';
import { BEAM, C_CHAIN, randomAddress } from '../helpers';

const NOW = Date.UTC(2026, 0, 1, 12);
const relayer = (address: string): WatchedRelayer => ({
  address,
  label: '',
  network: 'mainnet',
  silentMinutes: 30,
  pendingMinutes: 10,
  alert: true,
  createdAt: 0,
});

describe('the wallets the fuel figures cover', () => {
  const store = useStore();

  it('keeps a quiet wallet read before while its relayer is watched; forgets the reads of the others', () => {
    const fuel = store().relayerFuel;
    const [a, b, gone] = [randomAddress(), randomAddress(), randomAddress()];
    const read = (address: string, blockchainId: string) =>
      fuel.recordRead({ relayer: address, blockchainId, balance: 5n, symbol: 'AVAX', decimals: 18, usdPrice: null, at: NOW - 60_000 });
    read(a, C_CHAIN); // a's wallet on C-Chain, delivering today
    read(a, BEAM); // a's wallet on Beam, quiet today
    read(gone, C_CHAIN); // a relayer no longer watched
    const delivering: WalletPayments = { relayer: a.toLowerCase(), watched: relayer(a), blockchainId: C_CHAIN, payments: [{ at: NOW - 1000, wei: 7n }] };
    const newcomer: WalletPayments = { relayer: b.toLowerCase(), watched: relayer(b), blockchainId: BEAM, payments: [{ at: NOW - 2000, wei: 1n }] };
    const reads = readsByWallet(fuel);
    expect(reads.size).toBe(3);
    const wallets = fuelWallets([relayer(a), relayer(b)], [delivering, newcomer], reads);
    expect(wallets.map((w) => [w.relayer, w.blockchainId, w.payments.length])).toEqual([
      [a.toLowerCase(), C_CHAIN, 1],
      [b.toLowerCase(), BEAM, 1],
      [a.toLowerCase(), BEAM, 0],
    ]);
    expect(wallets[2]!.watched.address).toBe(a);
    forgetReads(fuel, wallets, reads);
    expect(
      fuel
        .all()
        .map((r) => `${r.relayer}|${r.blockchainId}`)
        .sort(),
    ).toEqual([`${a.toLowerCase()}|${BEAM}`, `${a.toLowerCase()}|${C_CHAIN}`].sort());
  });
});
