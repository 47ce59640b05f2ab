/**
 * One simulated message: everything random about its whole life is drawn when it is sent, so the
 * records it produces do not depend on how time is stepped afterwards (same seed, same records).
 */
import type { ChainInfo } from '../shared/chains';
import type { Rng } from '../shared/rng';
import { gasPriceWei, REWARD_TOKENS, type RewardToken } from './catalog';

/** `undelivered`: never delivered (stays pending for good). */
export type Outcome = 'normal' | 'undelivered' | 'sourceNotIndexed';
export type Stage = 'sent' | 'delivered' | 'receipted';

export interface MessagePlan {
  messageId: string;
  network: 'mainnet' | 'fuji';
  source: ChainInfo;
  destination: ChainInfo;
  /** The messenger contract that sent it (its address is part of the message ID). */
  messenger: string;
  nonce: string;
  from: string;
  to: string;
  data: string;
  token: RewardToken;
  rewardValue: string;
  outcome: Outcome;
  executed: boolean;
  sentAt: number;
  deliverAt: number;
  /** Set by send(): the relayer sends this message's receipt back explicitly, arriving this long after delivery. */
  receiptDelayMs?: number;
  /** Set by send(): indexing lag of every change of this message. */
  lagMs?: number;
  /** The drawn indexing lag of its changes is cut to this (the demo day's demo routes). */
  maxLagMs?: number;
  /** Originals whose receipts this message carries back (`receipts[]`), fixed when it is sent. */
  carries: MessagePlan[];
  /** A carrier naming this message has been delivered. */
  receipted: boolean;
  sourceTx: { txHash: string; timestamp: number; gasSpent: string };
  destTx: { txHash: string; timestamp: number; gasSpent: string; rewardRedeemer: string; delivererAddress: string };
}

interface PlanInputs {
  network: 'mainnet' | 'fuji';
  source: ChainInfo;
  destination: ChainInfo;
  nonce: string;
  from: string;
  to: string;
  relayer: string;
  deliverer: string;
  messenger: string;
  outcome: Outcome;
  sentAt: number;
  /** Simulated milliseconds from send to delivery. */
  deliveryDelayMs: number;
}

const ms = (t: number) => Math.floor(t / 1000);

/** Reward in the token's smallest unit, as a decimal string (exact for 18 decimals). */
function rewardAmount(rng: Rng, t: RewardToken): string {
  if (rng.chance(0.25)) return '0';
  const whole = t.min + rng.next() * (t.max - t.min);
  const micro = BigInt(Math.round(whole * 1e6));
  return (t.decimals >= 6 ? micro * 10n ** BigInt(t.decimals - 6) : micro / 10n ** BigInt(6 - t.decimals)).toString();
}

export function drawPlan(rng: Rng, p: PlanInputs): MessagePlan {
  const token = rng.weighted(REWARD_TOKENS[p.network]);
  const deliverAt = p.sentAt + p.deliveryDelayMs;
  const srcGas = BigInt(rng.int(95_000, 260_000)) * gasPriceWei(p.source);
  const dstGas = BigInt(rng.int(150_000, 420_000)) * gasPriceWei(p.destination);
  return {
    messageId: rng.hex(32),
    network: p.network,
    source: p.source,
    destination: p.destination,
    messenger: p.messenger,
    nonce: p.nonce,
    from: p.from,
    to: p.to,
    data: '0x' + rng.hex(32 * rng.int(1, 6)),
    token,
    rewardValue: rewardAmount(rng, token),
    outcome: p.outcome,
    executed: !rng.chance(0.01),
    sentAt: p.sentAt,
    deliverAt,
    carries: [],
    receipted: false,
    sourceTx: { txHash: '0x' + rng.hex(32), timestamp: ms(p.sentAt), gasSpent: srcGas.toString() },
    destTx: { txHash: '0x' + rng.hex(32), timestamp: ms(deliverAt), gasSpent: dstGas.toString(), rewardRedeemer: p.relayer, delivererAddress: p.deliverer },
  };
}

/** The API record of a message at a stage, with a fixed key order so output is byte-identical. */
export function recordOf(m: MessagePlan, stage: Stage): Record<string, unknown> {
  const delivered = stage !== 'sent';
  const receipted = stage === 'receipted';
  const status = !delivered ? 'pending' : m.outcome === 'sourceNotIndexed' ? 'delivered_source_not_indexed' : 'delivered';
  const rec: Record<string, unknown> = {
    messageId: m.messageId,
    teleporterContractAddress: m.messenger,
    sourceBlockchainId: m.source.blockchainId,
    destinationBlockchainId: m.destination.blockchainId,
    sourceEvmChainId: m.source.evmChainId,
    destinationEvmChainId: m.destination.evmChainId,
    messageNonce: m.nonce,
    from: m.from,
    to: m.to,
    data: m.data,
    messageExecuted: delivered && m.executed,
    receipts: m.carries.map((o) => ({ receivedMessageNonce: o.nonce, relayerRewardAddress: o.destTx.rewardRedeemer })),
    receiptDelivered: receipted,
    rewardDetails: {
      address: m.token.address,
      name: m.token.name,
      symbol: m.token.symbol,
      decimals: m.token.decimals,
      logoUri: m.token.logoUri,
      ercType: 'ERC-20',
      price: { currencyCode: 'usd', value: m.token.usd },
      value: m.rewardValue,
    },
    status,
  };
  if (m.outcome !== 'sourceNotIndexed') rec.sourceTransaction = { ...m.sourceTx };
  if (delivered) rec.destinationTransaction = { ...m.destTx };
  // The SDK models this variant of teleporter lists as the ICM record: it carries both names.
  return status === 'delivered_source_not_indexed' ? withIcmAddress(rec) : rec;
}

/** The source-not-indexed record: `icmContractAddress` right after `teleporterContractAddress`. */
function withIcmAddress(rec: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec)) {
    out[k] = v;
    if (k === 'teleporterContractAddress') out.icmContractAddress = v;
  }
  return out;
}
