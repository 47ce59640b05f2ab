/**
 * One pass over the cached deliveries of the last day for the watched relayers' economics: each
 * wallet's gas payments (deliverer and destination chain) and, per relayer and route, the earnings of
 * the last hour and day. A delivery counts for the watched relayer it names (deliverer, else reward
 * address); its gas is paid from the deliverer's wallet on the destination chain.
 */
import { chainByBlockchainId, chainByEvmChainId } from '../../shared/chains';
import type { RouteEarnings, WatchedRelayer } from '../../shared/relayers';
import { routeLabel } from '../watch/route-label';
import { watchedRelayerOf } from './attribution';
import type { Delivery } from './delivery-record';
import { toUnits, type GasPayment } from './fuel';
import { RewardSums } from './token-sums';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** How many failed executions a route lists by ID (the count is exact). */
const MAX_FAILED_IDS = 100;

/** A watched relayer's wallet on one chain, with the payments the cache shows over the last day. */
export interface WalletPayments {
  /** The deliverer address (the wallet), lowercase. */
  relayer: string;
  watched: WatchedRelayer;
  blockchainId: string;
  payments: GasPayment[];
}

interface RouteAcc {
  watched: WatchedRelayer;
  source: string;
  destination: string;
  deliveries: number;
  paid: RewardSums;
  owed: RewardSums;
  gasWei: bigint;
  failed: string[];
  failedCount: number;
}

/** The chain a delivery's gas is paid on: its cb58 blockchain ID (from the EVM chain ID when only that is known). */
export function walletChainOf(d: Delivery): string {
  if (d.chains.destinationBlockchainId) return d.chains.destinationBlockchainId;
  return chainByEvmChainId(d.chains.destinationEvmChainId)?.blockchainId ?? d.destinationChain;
}

export const walletKey = (relayer: string, blockchainId: string) => `${relayer.toLowerCase()}|${blockchainId}`;

export class EconomicsAccumulator {
  private readonly wallets = new Map<string, WalletPayments>();
  private readonly hour = new Map<string, RouteAcc>();
  private readonly day = new Map<string, RouteAcc>();

  constructor(
    private readonly relayers: readonly WatchedRelayer[],
    private readonly now: number,
  ) {}

  add(d: Delivery): void {
    if (d.deliveredAt > this.now || d.deliveredAt <= this.now - DAY_MS) return;
    const watched = watchedRelayerOf(this.relayers, d);
    if (!watched) return;
    const chain = walletChainOf(d);
    const key = walletKey(d.deliverer, chain);
    let w = this.wallets.get(key);
    if (!w) this.wallets.set(key, (w = { relayer: d.deliverer.toLowerCase(), watched, blockchainId: chain, payments: [] }));
    if (d.gasWei !== null) w.payments.push({ at: d.deliveredAt, wei: d.gasWei });
    this.addRoute(this.day, watched, d);
    if (d.deliveredAt > this.now - HOUR_MS) this.addRoute(this.hour, watched, d);
  }

  /** Wallets with a delivery in the last day. */
  walletPayments(): WalletPayments[] {
    return [...this.wallets.values()];
  }

  /** Earnings per relayer and route over the last hour or day; gas priced by `nativeUsd` (the chain's balance read). */
  earnings(window: 'hour' | 'day', nativeUsd: (blockchainId: string) => number | null): RouteEarnings[] {
    return [...(window === 'hour' ? this.hour : this.day).values()].map((a) => earningsOf(a, nativeUsd(a.destination)));
  }

  private addRoute(into: Map<string, RouteAcc>, watched: WatchedRelayer, d: Delivery): void {
    const source = d.chains.sourceBlockchainId || d.chains.sourceEvmChainId;
    const destination = walletChainOf(d);
    const key = `${watched.address.toLowerCase()}|${watched.network}|${source}|${destination}`;
    let a = into.get(key);
    if (!a) {
      a = { watched, source, destination, deliveries: 0, paid: new RewardSums(), owed: new RewardSums(), gasWei: 0n, failed: [], failedCount: 0 };
      into.set(key, a);
    }
    a.deliveries++;
    (d.receiptDelivered ? a.paid : a.owed).add(d);
    if (d.gasWei !== null) a.gasWei += d.gasWei;
    if (!d.executed) {
      a.failedCount++;
      if (a.failed.length < MAX_FAILED_IDS) a.failed.push(d.messageId);
    }
  }
}

function earningsOf(a: RouteAcc, nativeUsd: number | null): RouteEarnings {
  const chain = chainByBlockchainId(a.destination);
  const decimals = 18;
  const gasUsd = nativeUsd === null ? null : toUnits(a.gasWei, decimals) * nativeUsd;
  const paid = a.paid.sums();
  const paidUsd = paid.map((t) => (t.fiat && t.fiat.currencyCode === 'usd' ? t.fiat.value : null));
  const profitUsd = gasUsd === null || paidUsd.includes(null) ? null : paidUsd.reduce<number>((s, v) => s + v!, 0) - gasUsd;
  return {
    relayer: a.watched.address,
    relayerLabel: a.watched.label,
    sourceChain: a.source,
    destinationChain: a.destination,
    routeLabel: routeLabel(a.source, a.destination),
    deliveries: a.deliveries,
    paid,
    owed: a.owed.sums(),
    gasSpent: a.gasWei.toString(),
    gasSymbol: chain?.nativeSymbol ?? 'native',
    gasDecimals: decimals,
    gasUsd,
    profitUsd,
    failedExecutions: { count: a.failedCount, messageIds: a.failed },
    redeemable: null,
  };
}
