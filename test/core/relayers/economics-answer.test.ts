/**
 * The `relayerEconomics` answer's assembly (src/core/relayers/economics-answer.ts): fuel rows by relayer
 * then chain, each marked low while its fuel alert is open; each route's failures marked firing while
 * its failed-execution alert is open; the thresholds and the read cadence as given, in minutes.
 */
import { describe, expect, it } from 'vitest';
import { EconomicsAccumulator, type WalletPayments } from '../../../src/core/relayers/economics';
import { economicsAnswer } from '../../../src/core/relayers/economics-answer';
import { fuelEpisodeKey } from '../../../src/core/relayers/fuel-alert';
import { failedKey, RouteFailures } from '../../../src/core/relayers/route-failures';
import type { WatchedRelayer, WatchedRoute } from '../../../src/shared/relayers';
import { BEAM, C_CHAIN } from '../helpers';

const NOW = Date.UTC(2026, 0, 1, 12);
const relayer = (address: string, label: string): WatchedRelayer => ({
  address,
  label,
  network: 'mainnet',
  silentMinutes: 30,
  pendingMinutes: 10,
  alert: true,
  createdAt: 0,
});
const route = (id: string, sourceChain: string, destinationChain: string): WatchedRoute => ({
  id,
  label: '',
  network: 'mainnet',
  sourceChain,
  destinationChain,
  backlogMinutes: 30,
  alert: true,
  createdAt: 0,
});

describe('the economics answer', () => {
  it('orders the fuel rows, marks what fires, says the thresholds and the cadence', () => {
    const zed = relayer('0x2222222222222222222222222222222222222222', 'zed');
    const amy = relayer('0x1111111111111111111111111111111111111111', 'amy');
    const wallet = (r: WatchedRelayer, blockchainId: string): WalletPayments => ({ relayer: r.address, watched: r, blockchainId, payments: [] });
    const routes = [route('r1', C_CHAIN, BEAM), route('r2', BEAM, C_CHAIN)];
    const e = economicsAnswer({
      now: NOW,
      acc: new EconomicsAccumulator([zed, amy], NOW),
      failures: new RouteFailures(routes, NOW),
      wallets: [wallet(zed, C_CHAIN), wallet(amy, C_CHAIN), wallet(amy, BEAM)],
      reads: new Map(),
      open: new Set([fuelEpisodeKey(amy.address, BEAM), failedKey('r2')]),
      own: [],
      historyFrom: NOW - 3_600_000,
      fuelThresholdHours: 6,
      failedExecutionsPerHour: 3,
      readEveryMs: 5 * 60_000,
      maxAgeMs: 30 * 60_000,
    });
    expect(e.fuel.map((f) => [f.relayerLabel, f.chainName, f.low])).toEqual([
      ['amy', 'Beam', true],
      ['amy', 'C-Chain', false],
      ['zed', 'C-Chain', false],
    ]);
    expect(e.routeFailures.map((r) => [r.routeId, r.firing])).toEqual([
      ['r1', false],
      ['r2', true],
    ]);
    expect(e).toMatchObject({
      at: NOW,
      historyFrom: NOW - 3_600_000,
      fuelThresholdHours: 6,
      failedExecutionsPerHour: 3,
      balanceReadEveryMinutes: 5,
      balanceMaxAgeMinutes: 30,
    });
    expect(e.earnings).toEqual({ hour: [], day: [] });
  });
});
