/**
 * What the relayer figures read from one cached message record: a delivery (who delivered it, when,
 * at what gas and reward) or a pending message on a route. Records are read as the Data API sent them.
 */
import { chainByBlockchainId, chainByEvmChainId } from '../../shared/chains';
import { parseMessage } from '../../shared/messages';
import type { Network } from '../../shared/validators';

export interface Delivery {
  messageId: string;
  network: Network;
  raw: Record<string, unknown>;
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
  raw: Record<string, unknown>;
  /** Source transaction time (ms). */
  sentAt: number;
}

const wholeNumber = (s: string): bigint | null => (/^\d+$/.test(s) ? BigInt(s) : null);

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
    raw,
    deliverer: dst.delivererAddress,
    rewardAddress: dst.rewardRedeemer,
    sentAt: m.status === 'delivered' ? m.sourceTransaction.timestamp * 1000 : null,
    deliveredAt: dst.timestamp * 1000,
    destinationChain,
    gasSymbol: chain?.nativeSymbol ?? 'native',
    gasWei: wholeNumber(dst.gasSpent),
    reward: rewardOf(m.rewardDetails),
  };
}

function rewardOf(r: {
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
  return { messageId: m.messageId, network, raw, sentAt: m.sourceTransaction.timestamp * 1000 };
}
