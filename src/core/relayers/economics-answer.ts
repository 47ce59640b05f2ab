/**
 * The `relayerEconomics` answer from one pass over the cache and the stored reads (no request): the
 * wallets' fuel rows, each relayer's and route's earnings of the last hour and day (in dollars at the
 * chains' read prices, and what your own nodes say is still redeemable), and the routes' failed executions.
 */
import type { OwnChain } from '../../shared/chains';
import type { RelayerEconomics, RouteEarnings } from '../../shared/relayers';
import type { FuelRead } from '../store/relayer-fuel';
import { walletKey, type EconomicsAccumulator, type RedeemableOf, type WalletPayments } from './economics';
import { fuelEpisodeKey } from './fuel-alert';
import { byRelayerAndChain, fuelRow } from './fuel-rows';
import { failedKey, type RouteFailures } from './route-failures';
import { MINUTE_MS } from '../../shared/time';

export interface EconomicsInputs {
  now: number;
  acc: EconomicsAccumulator;
  failures: RouteFailures;
  /** The wallets covered (fuel-wallets.ts) and the stored reads by wallet. */
  wallets: readonly WalletPayments[];
  reads: ReadonlyMap<string, FuelRead>;
  /** The keys of the fuel and failed-execution episodes open now. */
  open: ReadonlySet<string>;
  own: readonly OwnChain[];
  /** Since when the watched routes' deliveries are held (route-history.ts). */
  historyFrom: number | null;
  /** What a reward address may still redeem (only while your own nodes are the data source). */
  redeemable?: RedeemableOf;
  fuelThresholdHours: number;
  failedExecutionsPerHour: number;
  readEveryMs: number;
  maxAgeMs: number;
}

const byName = (a: RouteEarnings, b: RouteEarnings) =>
  (a.relayerLabel || a.relayer).localeCompare(b.relayerLabel || b.relayer) || a.routeLabel.localeCompare(b.routeLabel);

export function economicsAnswer(i: EconomicsInputs): RelayerEconomics {
  const { now, own } = i;
  const fuel = i.wallets
    .map((w) => fuelRow(w, i.reads.get(walletKey(w.relayer, w.blockchainId)), i.open.has(fuelEpisodeKey(w.relayer, w.blockchainId)), now, own, i.historyFrom))
    .sort(byRelayerAndChain);
  const prices = new Map<string, number>();
  for (const r of i.reads.values()) if (r.usdPrice !== null) prices.set(r.blockchainId, r.usdPrice);
  const nativeUsd = (chain: string) => prices.get(chain) ?? null;
  const earnings = (window: 'hour' | 'day') => i.acc.earnings(window, nativeUsd, i.redeemable, own).sort(byName);
  return {
    at: now,
    historyFrom: i.historyFrom,
    fuel,
    earnings: { hour: earnings('hour'), day: earnings('day') },
    fuelThresholdHours: i.fuelThresholdHours,
    balanceReadEveryMinutes: i.readEveryMs / MINUTE_MS,
    balanceMaxAgeMinutes: i.maxAgeMs / MINUTE_MS,
    routeFailures: i.failures.rows((routeId) => i.open.has(failedKey(routeId)), own),
    failedExecutionsPerHour: i.failedExecutionsPerHour,
  };
}
