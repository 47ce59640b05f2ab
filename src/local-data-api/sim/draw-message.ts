/** Draws the next simulated message: route, people, outcome and delays (or the ones asked for). */
import type { ChainInfo } from '../../shared/chains';
import { CHAIN_REGISTRY } from '../../shared/chains';
import type { Rng } from '../rng';
import { chainWeights, NETWORK_WEIGHTS } from './catalog';
import { drawPlan, type MessagePlan, type Outcome } from './message-plan';

export interface SendOptions {
  network?: 'mainnet' | 'fuji';
  /** cb58 blockchain ID or EVM chain ID of a registry chain. */
  source?: string;
  destination?: string;
  from?: string;
  to?: string;
  outcome?: Outcome;
  deliveryDelayMs?: number;
  /** The relayer sends this message's receipt back explicitly (`sendSpecifiedReceipts`), arriving this long after delivery. */
  receiptDelayMs?: number;
  /** Indexing lag of every change of this message (ms), whatever the `lag` option says. */
  lagMs?: number;
}

export interface DrawContext {
  rng: Rng;
  /** Delivery delays are divided by this. */
  speed: number;
  /** Last message nonce per source chain. */
  nonces: Map<string, number>;
  addressWeights: readonly (readonly [string, number])[];
  relayers: readonly string[];
}

/** Share of messages that never get delivered, and of those whose source transaction is never indexed. */
const STUCK_RATE = 0.02;
const SOURCE_NOT_INDEXED_RATE = 0.04;
export const MIN_DELIVERY_MS = 2_000;
export const MAX_DELIVERY_MS = 10 * 60_000;

export function chainOf(ref: string): ChainInfo {
  const c = CHAIN_REGISTRY.chains.find((x) => x.blockchainId === ref || x.evmChainId === ref);
  if (!c) throw new Error(`Unknown chain "${ref}": use a blockchain ID or EVM chain ID from resources/chains.json.`);
  return c;
}

export function drawMessage(ctx: DrawContext, sentAt: number, o: SendOptions): MessagePlan {
  const rng = ctx.rng;
  const hint = o.source ?? o.destination;
  const network = o.network ?? (hint !== undefined ? chainOf(hint).network : rng.weighted(NETWORK_WEIGHTS));
  const weights = chainWeights(network);
  const source = o.source !== undefined ? chainOf(o.source) : rng.weighted(weights);
  const others = weights.filter(([c]) => c.blockchainId !== source.blockchainId);
  const destination = o.destination !== undefined ? chainOf(o.destination) : rng.weighted(others.length ? others : weights);
  const from = o.from ?? rng.weighted(ctx.addressWeights);
  // Most messages go to a contract or account other than the sender; some users message themselves.
  const to = o.to ?? (rng.chance(0.1) ? from : rng.weighted(ctx.addressWeights));
  const relayer = rng.pick(ctx.relayers);
  const u = rng.next();
  const outcome: Outcome = o.outcome ?? (u < STUCK_RATE ? 'stuck' : u < STUCK_RATE + SOURCE_NOT_INDEXED_RATE ? 'sourceNotIndexed' : 'normal');
  const delivery = o.deliveryDelayMs ?? Math.min(MAX_DELIVERY_MS, Math.max(MIN_DELIVERY_MS, rng.logNormal(12_000, 1.0))) / ctx.speed;
  const nonce = (ctx.nonces.get(source.blockchainId) ?? rng.int(1_000, 90_000)) + 1;
  ctx.nonces.set(source.blockchainId, nonce);
  const plan = drawPlan(rng, {
    network,
    source,
    destination,
    nonce: String(nonce),
    from,
    to,
    relayer,
    deliverer: relayer,
    outcome,
    sentAt,
    deliveryDelayMs: Math.round(delivery),
  });
  if (o.receiptDelayMs !== undefined) plan.receiptDelayMs = o.receiptDelayMs;
  if (o.lagMs !== undefined) plan.lagMs = o.lagMs;
  return plan;
}
