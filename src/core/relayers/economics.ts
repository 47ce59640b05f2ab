/**
 * One pass over the cached deliveries of the last day for the watched relayers' economics: each
 * wallet's gas payments (deliverer and destination chain) and, per relayer and route, the earnings of
 * the last hour and day. A delivery counts for the watched relayer it names (deliverer, else reward
 * address); its gas is paid from the deliverer's wallet on the destination chain.
 */
import { chainByBlockchainId, chainByEvmChainId, routeLabel, type OwnChain } from '../../shared/chains';
import type { RouteEarnings, TokenSum, WatchedRelayer } from '../../shared/relayers';
import { watchedRelayerOf } from './attribution';
import type { Delivery } from './delivery-record';
import { toUnits, type GasPayment } from './fuel';
import { RewardSums } from './token-sums';
import { DAY_MS, HOUR_MS } from '../../shared/time';
import { MAX_LISTED_FAILED_MESSAGES, MAX_OWED_MESSAGES_PER_CALL } from '../../shared/policy';

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
  /** Deliveries whose fee is owed (a fee, receipt not back): the messages a Receipts call names. */
  owedIds: string[];
  /** The reward addresses its deliveries named (lowercase): whose credit on the source chain pays them. */
  rewardAddresses: Set<string>;
}

/** A reward address's fee tokens on a source chain: what to ask `checkRelayerRewardAmount` for. */
export interface RewardCredit {
  relayer: string;
  chain: string;
  /** Fee token addresses, lowercase (messages without a fee name none). */
  tokens: string[];
  /** Changes when a receipt pays more (a fresh credit to read). */
  paid: string;
}

/** What a reward address may redeem of a token on a chain (null: not read). */
export type RedeemableOf = (relayer: string, chain: string, token: string) => bigint | null;

const NO_FEE_TOKEN = '0x0000000000000000000000000000000000000000';

/** The chain a delivery's gas is paid on: its cb58 blockchain ID (from the EVM chain ID when only that is known). */
function walletChainOf(d: Delivery): string {
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

  /** Earnings per relayer and route over the last hour or day; gas priced by `nativeUsd` (the chain's balance read); `own` names your own chains. */
  earnings(
    window: 'hour' | 'day',
    nativeUsd: (blockchainId: string) => number | null,
    redeemable?: RedeemableOf,
    own: readonly OwnChain[] = [],
  ): RouteEarnings[] {
    return [...(window === 'hour' ? this.hour : this.day).values()].map((a) => earningsOf(a, nativeUsd(a.destination), redeemable, own));
  }

  /** Each reward address's fee tokens per source chain over the day's routes. */
  rewardCredits(): RewardCredit[] {
    const by = new Map<string, { relayer: string; chain: string; tokens: Set<string>; paid: string[] }>();
    for (const a of this.day.values()) {
      const tokens = feeTokensOf(a).map((t) => t.token.toLowerCase());
      if (!tokens.length) continue;
      for (const relayer of a.rewardAddresses) {
        const key = `${relayer}|${a.source}`;
        let c = by.get(key);
        if (!c) by.set(key, (c = { relayer, chain: a.source, tokens: new Set(), paid: [] }));
        for (const t of tokens) c.tokens.add(t);
        c.paid.push(...a.paid.sums().map((t) => `${a.destination}:${t.token}:${t.value}`));
      }
    }
    return [...by.values()].map((c) => ({ relayer: c.relayer, chain: c.chain, tokens: [...c.tokens].sort(), paid: c.paid.sort().join(',') }));
  }

  private addRoute(into: Map<string, RouteAcc>, watched: WatchedRelayer, d: Delivery): void {
    const source = d.chains.sourceBlockchainId || d.chains.sourceEvmChainId;
    const destination = walletChainOf(d);
    const key = `${watched.address.toLowerCase()}|${watched.network}|${source}|${destination}`;
    let a = into.get(key);
    if (!a) {
      a = {
        watched,
        source,
        destination,
        deliveries: 0,
        paid: new RewardSums(),
        owed: new RewardSums(),
        gasWei: 0n,
        failed: [],
        failedCount: 0,
        owedIds: [],
        rewardAddresses: new Set(),
      };
      into.set(key, a);
    }
    a.deliveries++;
    if (d.rewardAddress) a.rewardAddresses.add(d.rewardAddress.toLowerCase());
    (d.receiptDelivered ? a.paid : a.owed).add(d);
    const feeOwed = !d.receiptDelivered && d.reward !== null && d.reward.value > 0n && d.reward.token.toLowerCase() !== NO_FEE_TOKEN;
    if (feeOwed && a.owedIds.length < MAX_OWED_MESSAGES_PER_CALL) a.owedIds.push(d.messageId);
    if (d.gasWei !== null) a.gasWei += d.gasWei;
    if (!d.executed) {
      a.failedCount++;
      if (a.failed.length < MAX_LISTED_FAILED_MESSAGES) a.failed.push(d.messageId);
    }
  }
}

/** The route's fee tokens (paid or owed), without the zero address of messages that carried no fee. */
function feeTokensOf(a: RouteAcc): TokenSum[] {
  const seen = new Map<string, TokenSum>();
  for (const t of [...a.paid.sums(), ...a.owed.sums()]) if (t.token.toLowerCase() !== NO_FEE_TOKEN) seen.set(t.token.toLowerCase(), t);
  return [...seen.values()];
}

/**
 * What the route's reward addresses may redeem on its source chain per fee token (the whole credit
 * there, shared by every route from that chain); null when a figure is not read.
 */
function redeemableOf(a: RouteAcc, redeemable: RedeemableOf | undefined): TokenSum[] | null {
  if (!redeemable || a.rewardAddresses.size === 0) return null;
  const out: TokenSum[] = [];
  for (const t of feeTokensOf(a)) {
    let value = 0n;
    for (const relayer of a.rewardAddresses) {
      const v = redeemable(relayer, a.source, t.token.toLowerCase());
      if (v === null) return null;
      value += v;
    }
    out.push({ token: t.token, symbol: t.symbol, decimals: t.decimals, value: value.toString(), fiat: null });
  }
  return out;
}

function earningsOf(a: RouteAcc, nativeUsd: number | null, redeemable: RedeemableOf | undefined, own: readonly OwnChain[]): RouteEarnings {
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
    routeLabel: routeLabel(a.source, a.destination, own),
    deliveries: a.deliveries,
    paid,
    owed: a.owed.sums(),
    owedMessageIds: a.owedIds,
    gasSpent: a.gasWei.toString(),
    gasSymbol: chain?.nativeSymbol ?? 'native',
    gasDecimals: decimals,
    gasUsd,
    profitUsd,
    failedExecutions: { count: a.failedCount, messageIds: a.failed },
    redeemable: redeemableOf(a, redeemable),
  };
}
