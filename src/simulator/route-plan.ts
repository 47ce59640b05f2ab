/**
 * Sparse routes: which routes carry the busy traffic and which are quiet. Real Teleporter traffic is
 * concentrated on a few routes; most see a message every few minutes, and some only one way (nothing
 * ever comes back, so receipts queued for the way back wait until a relayer re-sends them, if ever).
 * Drawn from the seed alone, so the same seed gives the same routes.
 */
import type { ChainInfo } from '../shared/chains';
import { Rng } from '../shared/rng';
import { chainWeights, NETWORK_WEIGHTS } from './catalog';
import { MINUTE_MS } from '../shared/time';

export interface Route {
  source: ChainInfo;
  destination: ChainInfo;
}

export interface RoutePlan {
  /** Per network, the routes of the busy traffic (both ways) with their weights. */
  busy: Record<'mainnet' | 'fuji', (readonly [Route, number])[]>;
  /** Routes with their own slow traffic: one message every QUIET_MEAN_GAP_MS on average. */
  quiet: Route[];
  /** Quiet routes whose way back never carries a message. */
  oneWay: Route[];
}

/** Mean time between two messages on one quiet route (exponential gaps). */
export const QUIET_MEAN_GAP_MS = 3 * MINUTE_MS;
/** Share of the C-Chain's pairs that are busy; the other pairs are quiet, half of those one way. */
const BUSY_SHARE = 0.6;
const ONE_WAY_SHARE = 0.5;

export function planRoutes(seed: number): RoutePlan {
  const rng = new Rng((seed ^ 0x5ba45e) >>> 0);
  const plan: RoutePlan = { busy: { mainnet: [], fuji: [] }, quiet: [], oneWay: [] };
  for (const [network] of NETWORK_WEIGHTS) {
    const chains = chainWeights(network);
    const pairs: [readonly [ChainInfo, number], readonly [ChainInfo, number]][] = [];
    for (let i = 0; i < chains.length; i++) for (let j = i + 1; j < chains.length; j++) pairs.push([chains[i]!, chains[j]!]);
    // Pairs with the C-Chain first: the first is always busy, the last always one way (every network has both kinds).
    pairs.sort((x, y) => Number(y[0][0].name === 'C-Chain') - Number(x[0][0].name === 'C-Chain'));
    pairs.forEach(([[a, wa], [b, wb]], k) => {
      const withC = a.name === 'C-Chain' || b.name === 'C-Chain';
      const busy = k === 0 || (k < pairs.length - 1 && withC && rng.chance(BUSY_SHARE));
      if (busy) {
        plan.busy[network].push([{ source: a, destination: b }, wa * wb], [{ source: b, destination: a }, wa * wb]);
        return;
      }
      const forward = rng.chance(0.5) ? { source: a, destination: b } : { source: b, destination: a };
      const oneWay = k === pairs.length - 1 || rng.chance(ONE_WAY_SHARE);
      plan.quiet.push(forward);
      if (oneWay) plan.oneWay.push(forward);
      else plan.quiet.push({ source: forward.destination, destination: forward.source });
    });
  }
  return plan;
}
