/**
 * What the relayer figures read from one cached message record: a delivery (who delivered it, when,
 * at what gas and reward) or a pending message on a route. Records are read as the Data API sent them.
 */
import { chainByBlockchainId, chainByEvmChainId } from '../../shared/chains';
import { parseMessage } from '../../shared/messages';
import type { Network } from '../../shared/validators';
import type { RouteMessageRow } from '../store/route-messages';

/** The four chain fields a route is matched on (as the record names them). */
export interface RouteChains {
  sourceBlockchainId: string;
  sourceEvmChainId: string;
  destinationBlockchainId: string;
  destinationEvmChainId: string;
}

export interface Delivery {
  messageId: string;
  network: Network;
  chains: RouteChains;
  deliverer: string;
  rewardAddress: string;
  /** Source transaction time (ms); null when the source is not indexed. */
  sentAt: number | null;
  /** Destination transaction time (ms). */
  deliveredAt: number;
  /** Destination chain (cb58, else EVM chain ID) and its native token, for gas. */
  destinationChain: string;
  gasSymbol: string;
  gasWei: bigint | null;
  reward: Reward | null;
  /** The receipt came back to the source chain: the reward is paid (else owed). */
  receiptDelivered: boolean;
  /** False: the message was delivered but its execution failed (someone must call retryMessageExecution). */
  executed: boolean;
}

export interface Reward {
  token: string;
  symbol: string;
  decimals: number;
  value: bigint;
  price: { currencyCode: string; value: number } | null;
}

export interface Pending {
  messageId: string;
  network: Network;
  chains: RouteChains;
  /** Source transaction time (ms). */
  sentAt: number;
}

const chainsOf = (m: RouteChains): RouteChains => ({
  sourceBlockchainId: m.sourceBlockchainId,
  sourceEvmChainId: m.sourceEvmChainId,
  destinationBlockchainId: m.destinationBlockchainId,
  destinationEvmChainId: m.destinationEvmChainId,
});

export const wholeNumber = (s: string): bigint | null => (/^\d+$/.test(s) ? BigInt(s) : null);

/** The delivery a record describes, or null when it is not delivered (or its record does not parse). */
export function deliveryOf(raw: Record<string, unknown>, network: Network): Delivery | null {
  const m = parseMessage(raw);
  if (!m || (m.status !== 'delivered' && m.status !== 'delivered_source_not_indexed')) return null;
  const dst = m.destinationTransaction;
  const destinationChain = m.destinationBlockchainId || m.destinationEvmChainId;
  const chain = chainByBlockchainId(m.destinationBlockchainId) ?? chainByEvmChainId(m.destinationEvmChainId);
  return {
    messageId: m.messageId,
    network,
    chains: chainsOf(m),
    deliverer: dst.delivererAddress,
    rewardAddress: dst.rewardRedeemer,
    sentAt: m.status === 'delivered' ? m.sourceTransaction.timestamp * 1000 : null,
    deliveredAt: dst.timestamp * 1000,
    destinationChain,
    gasSymbol: chain?.nativeSymbol ?? 'native',
    gasWei: wholeNumber(dst.gasSpent),
    reward: rewardOf(m.rewardDetails),
    receiptDelivered: m.receiptDelivered,
    executed: m.messageExecuted,
  };
}

export function rewardOf(r: {
  address: string;
  symbol: string;
  decimals: number;
  value: string;
  price?: { currencyCode: string; value: string | number } | undefined;
}): Reward | null {
  const value = wholeNumber(r.value);
  if (value === null) return null;
  const p = r.price ? Number(r.price.value) : NaN;
  return {
    token: r.address,
    symbol: r.symbol,
    decimals: r.decimals,
    value,
    price: r.price && Number.isFinite(p) ? { currencyCode: r.price.currencyCode.toLowerCase(), value: p } : null,
  };
}

/** The pending message a record describes, or null when it is not pending or has no source time. */
export function pendingOf(raw: Record<string, unknown>, network: Network): Pending | null {
  const m = parseMessage(raw);
  if (!m || m.status !== 'pending') return null;
  return { messageId: m.messageId, network, chains: chainsOf(m), sentAt: m.sourceTransaction.timestamp * 1000 };
}

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

const columnsChains = (r: RouteMessageRow): RouteChains => ({
  sourceBlockchainId: r.source_chain,
  sourceEvmChainId: text(r.source_evm),
  destinationBlockchainId: r.destination_chain,
  destinationEvmChainId: text(r.destination_evm),
});

/** A delivery from extracted columns; null when a field a delivery needs is missing. */
export function deliveryOfColumns(r: RouteMessageRow): Delivery | null {
  const deliverer = text(r.deliverer);
  if (r.destination_ts === null || deliverer === '') return null;
  const chains = columnsChains(r);
  const chain = chainByBlockchainId(chains.destinationBlockchainId) ?? chainByEvmChainId(chains.destinationEvmChainId);
  const decimals = typeof r.decimals === 'number' ? r.decimals : NaN;
  const reward =
    text(r.token) !== '' && Number.isInteger(decimals)
      ? rewardOf({
          address: text(r.token),
          symbol: text(r.symbol),
          decimals,
          value: text(r.value),
          ...(r.currency !== null && r.price !== null ? { price: { currencyCode: text(r.currency), value: text(r.price) } } : {}),
        })
      : null;
  return {
    messageId: r.message_id,
    network: r.network as Network,
    chains,
    deliverer,
    rewardAddress: text(r.reward_address),
    sentAt: r.status === 'delivered' && r.source_ts !== null ? r.source_ts * 1000 : null,
    deliveredAt: r.destination_ts * 1000,
    destinationChain: chains.destinationBlockchainId || chains.destinationEvmChainId,
    gasSymbol: chain?.nativeSymbol ?? 'native',
    gasWei: wholeNumber(text(r.gas)),
    reward,
    receiptDelivered: r.receipt === true || r.receipt === 1,
    executed: r.executed !== false && r.executed !== 0,
  };
}

export function pendingOfColumns(r: RouteMessageRow): Pending | null {
  if (r.source_ts === null) return null;
  return { messageId: r.message_id, network: r.network as Network, chains: columnsChains(r), sentAt: r.source_ts * 1000 };
}
