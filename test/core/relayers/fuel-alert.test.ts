/**
 * The fuel alert's episodes (src/core/relayers/fuel-alert.ts) over a real store and the real alert
 * timeline: a read near empty fires once, in words naming the relayer (its label, else its address
 * shortened) and the chain; a later read resolves it only when it shows a refill; a wallet on a chain
 * not read is held; one no longer watched is closed quietly.
 */
import { describe, expect, it } from 'vitest';
import { FuelAlert, fuelEpisodeKey } from '../../../src/core/relayers/fuel-alert';
import { fuelFigures, type GasPayment } from '../../../src/core/relayers/fuel';
import type { WalletPayments } from '../../../src/core/relayers/economics';
import { ALWAYS_SEEING, type Sight } from '../../../src/core/sources/sight';
import type { WatchedRelayer } from '../../../src/shared/relayers';
import { BEAM, C_CHAIN } from '../helpers';
import { useEpisodeRig } from './episode-rig';

const MIN = 60_000;
const ETHER = 10n ** 18n;
const NOW = Date.UTC(2026, 0, 1, 12);
const address = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';
const watched = (label = ''): WatchedRelayer => ({ address, label, network: 'mainnet', silentMinutes: 30, pendingMinutes: 10, alert: true, createdAt: 0 });
const wallet = (payments: GasPayment[], label = '', blockchainId = C_CHAIN): WalletPayments => ({
  relayer: address.toLowerCase(),
  watched: watched(label),
  blockchainId,
  payments,
});
/** One ether an hour, paid every five minutes over the two hours up to `now`. */
const burning = (now: number): GasPayment[] => Array.from({ length: 24 }, (_, i) => ({ at: now - i * 5 * MIN, wei: ETHER / 12n }));

describe('the fuel alert', () => {
  const rig = useEpisodeRig();
  const alertOf = (sight: Sight = ALWAYS_SEEING, thresholdHours = 6) =>
    new FuelAlert({ door: rig().door, sight, thresholdHours: () => thresholdHours, ownChains: () => [] });

  it('fires once near empty; a read without a refill keeps it; a refill resolves it, in words', () => {
    const { said } = rig();
    const alert = alertOf();
    const w = wallet(burning(NOW));
    alert.onRead(w, undefined, fuelFigures(10n * ETHER, w.payments, NOW - 5 * MIN), NOW - 5 * MIN); // 10 h left: quiet
    expect(said).toEqual([]);
    alert.onRead(w, { balance: 10n * ETHER, at: NOW - 5 * MIN }, fuelFigures(5n * ETHER, w.payments, NOW), NOW);
    expect(said).toEqual([
      {
        phase: 'fire',
        key: fuelEpisodeKey(address, C_CHAIN),
        title: 'Relayer low on gas: 0xAbCd…Ef01 on C-Chain',
        body: "Relayer 0xAbCd…Ef01 will run out of gas on C-Chain in about 5 h at the last hour's rate.",
        startedAt: NOW,
      },
    ]);
    expect([...alert.firing()]).toEqual([fuelEpisodeKey(address, C_CHAIN)]);
    // Less than the last read: no refill, still firing (and never fired twice).
    alert.onRead(w, { balance: 5n * ETHER, at: NOW }, fuelFigures(4n * ETHER, w.payments, NOW + 10 * MIN), NOW + 10 * MIN);
    expect(said).toHaveLength(1);
    alert.onRead(w, { balance: 4n * ETHER, at: NOW + 10 * MIN }, fuelFigures(50n * ETHER, w.payments, NOW + 15 * MIN), NOW + 15 * MIN);
    expect(said.slice(1)).toEqual([
      {
        phase: 'resolve',
        key: fuelEpisodeKey(address, C_CHAIN),
        title: 'Relayer refilled: 0xAbCd…Ef01 on C-Chain',
        body: 'Relayer 0xAbCd…Ef01 was refilled on C-Chain.',
        startedAt: NOW,
      },
    ]);
    expect(alert.firing().size).toBe(0);
  });

  it('names a labelled relayer by its label; holds a wallet whose chain is not read', () => {
    const { said } = rig();
    const blind = alertOf({ ...ALWAYS_SEEING, sees: (c) => c !== BEAM });
    const onBeam = wallet(burning(NOW), 'swift', BEAM);
    blind.onRead(onBeam, undefined, fuelFigures(ETHER, onBeam.payments, NOW), NOW);
    expect(said).toEqual([]);
    const onC = wallet(burning(NOW), 'swift');
    blind.onRead(onC, undefined, fuelFigures(ETHER, onC.payments, NOW), NOW);
    expect(said.map((s) => s.title)).toEqual(['Relayer low on gas: swift on C-Chain']);
  });

  it('closes the alert of a wallet no longer watched without a word; keeps the others', () => {
    const { said } = rig();
    const alert = alertOf();
    const onC = wallet(burning(NOW));
    const onBeam = wallet(burning(NOW), '', BEAM);
    for (const w of [onC, onBeam]) alert.onRead(w, undefined, fuelFigures(ETHER, w.payments, NOW), NOW);
    expect(alert.firing().size).toBe(2);
    alert.closeUnwatched([onBeam], NOW + MIN);
    expect(said.slice(2)).toEqual([{ phase: 'resolve', key: fuelEpisodeKey(address, C_CHAIN), title: null, body: null, startedAt: NOW }]);
    expect([...alert.firing()]).toEqual([fuelEpisodeKey(address, BEAM)]);
  });
});
