/** Draws the next simulated message: route, people, outcome and delays (or the ones asked for). */
import type { ChainInfo } from '../shared/chains';
import { CHAIN_REGISTRY } from '../shared/chains';
import type { Rng } from '../shared/rng';
import { chainWeights, MESSENGERS, NETWORK_WEIGHTS } from './catalog';
import { drawPlan, type MessagePlan, type Outcome } from './message-plan';
import { teleporterMessageId } from './message-id';
import type { RoutePlan } from './route-plan';
import type { RelayerPersonas } from './relayer-personas';
import { DEMO_ROUTE_MAX_DELIVERY_MS, shapeDemoPlan, type DemoDayDraws } from './demo-day-draws';
import { MINUTE_MS } from '../shared/time';

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
  /** Which messenger sends it (2 needs `messengerVersions: 2`); default drawn (with 2 versions, a quarter go through the second). */
  messengerVersion?: 1 | 2;
  /** Whether its execution on the destination succeeds (`messageExecuted`); default drawn (about 1 % fail). */
  executed?: boolean;
}

export interface DrawContext {
  rng: Rng;
  /** Delivery delays are divided by this. */
  speed: number;
  /** Last message nonce per messenger and source chain. */
  nonces: Map<string, number>;
  /** First nonce per source chain: every messenger's counter starts there, so the versions' nonces overlap. */
  nonceBase: Map<string, number>;
  /** Added to every first nonce (with computed IDs: so a restart on the same store does not reuse a run's nonces, and IDs). */
  nonceFloor: number;
  /** Messenger versions in use (1 or 2). With 2, message IDs are computed as the messenger does (message-id.ts). */
  messengerVersions: 1 | 2;
  /** Sparse routes: the busy traffic goes only over these. */
  busyRoutes?: RoutePlan['busy'];
  addressWeights: readonly (readonly [string, number])[];
  relayers: readonly string[];
  /** Who delivers and when, per route (absent: a relayer picked uniformly, the world's delay). */
  personas?: RelayerPersonas;
  /** The demo day's draws (absent: no demo day). */
  demoDay?: DemoDayDraws;
}

/** Share of messages that never get delivered, and of those whose source transaction is never indexed. */
const UNDELIVERED_RATE = 0.02;
const SOURCE_NOT_INDEXED_RATE = 0.04;
/** With two messenger versions, the share of messages the second one sends. */
const SECOND_MESSENGER_SHARE = 0.25;
const MIN_DELIVERY_MS = 2_000;
export const MAX_DELIVERY_MS = 10 * MINUTE_MS;

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
  const busy = o.source === undefined && o.destination === undefined && ctx.busyRoutes ? rng.weighted(ctx.busyRoutes[network]) : null;
  const source = busy ? busy.source : o.source !== undefined ? chainOf(o.source) : rng.weighted(weights);
  const others = weights.filter(([c]) => c.blockchainId !== source.blockchainId);
  const destination = busy ? busy.destination : o.destination !== undefined ? chainOf(o.destination) : rng.weighted(others.length ? others : weights);
  const from = o.from ?? rng.weighted(ctx.addressWeights);
  // Most messages go to a contract or account other than the sender; some users message themselves.
  const to = o.to ?? (rng.chance(0.1) ? from : rng.weighted(ctx.addressWeights));
  // Drawn even when a persona delivers: the traffic's stream stays as it was without personas.
  const uniform = rng.pick(ctx.relayers);
  const u = rng.next();
  const outcome: Outcome = o.outcome ?? (u < UNDELIVERED_RATE ? 'undelivered' : u < UNDELIVERED_RATE + SOURCE_NOT_INDEXED_RATE ? 'sourceNotIndexed' : 'normal');
  let delivery = o.deliveryDelayMs ?? Math.min(MAX_DELIVERY_MS, Math.max(MIN_DELIVERY_MS, rng.logNormal(12_000, 1.0))) / ctx.speed;
  const persona = ctx.personas?.pick(source.blockchainId, destination.blockchainId, sentAt);
  const relayer = persona?.address ?? uniform;
  if (persona && o.deliveryDelayMs === undefined) {
    const demoRoute = ctx.demoDay?.personas.listsRoute(source.blockchainId, destination.blockchainId) === true;
    const bounds = { min: MIN_DELIVERY_MS / ctx.speed, max: (demoRoute ? DEMO_ROUTE_MAX_DELIVERY_MS : MAX_DELIVERY_MS) / ctx.speed };
    delivery = ctx.personas!.deliverAt(persona, sentAt, delivery, ctx.speed, bounds) - sentAt;
  }
  if (o.messengerVersion === 2 && ctx.messengerVersions < 2) throw new Error('messengerVersion 2 needs the service option messengerVersions: 2.');
  const version = o.messengerVersion ?? (ctx.messengerVersions === 2 && rng.chance(SECOND_MESSENGER_SHARE) ? 2 : 1);
  const messenger = MESSENGERS[version - 1]!;
  let base = ctx.nonceBase.get(source.blockchainId);
  if (base === undefined) {
    base = ctx.nonceFloor + rng.int(1_000, 90_000);
    ctx.nonceBase.set(source.blockchainId, base);
  }
  const counter = `${messenger}|${source.blockchainId}`;
  const nonce = (ctx.nonces.get(counter) ?? base) + 1;
  ctx.nonces.set(counter, nonce);
  const plan = drawPlan(rng, {
    network,
    source,
    destination,
    nonce: String(nonce),
    from,
    to,
    relayer,
    deliverer: relayer,
    messenger,
    outcome,
    sentAt,
    deliveryDelayMs: Math.round(delivery),
  });
  // Random IDs keep the one-messenger world as it was; with two versions they are the messenger's own.
  if (ctx.messengerVersions === 2) plan.messageId = teleporterMessageId(messenger, source.blockchainId, destination.blockchainId, plan.nonce);
  if (o.receiptDelayMs !== undefined) plan.receiptDelayMs = o.receiptDelayMs;
  if (o.lagMs !== undefined) plan.lagMs = o.lagMs;
  // Set after the draw, so the random stream stays as it was.
  if (o.executed !== undefined) plan.executed = o.executed;
  if (ctx.demoDay)
    shapeDemoPlan(ctx.demoDay, plan, {
      drawnOutcome: o.outcome === undefined,
      executedAsked: o.executed !== undefined,
      hot: ctx.demoDay.hot.has(from) || ctx.demoDay.hot.has(to),
    });
  return plan;
}
