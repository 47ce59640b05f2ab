/**
 * What the economics gather from one pass over the cache's deliveries of the last day: the watched
 * relayers' payments and earnings (economics.ts) and the watched routes' failed executions
 * (route-failures.ts). The pass is normally the relayer figures' own (tapped), else one of its own.
 */
import type { WatchedRelayer, WatchedRoute } from '../../shared/relayers';
import { EconomicsAccumulator } from './economics';
import type { DeliveryTap } from './figure-accumulator';
import type { RelayerFigures } from './relayer-figures';
import { RouteFailures } from './route-failures';

export interface EconomicsPass {
  now: number;
  relayers: readonly WatchedRelayer[];
  acc: EconomicsAccumulator;
  failures: RouteFailures;
}

/** An empty pass and the tap that fills it from each delivery the figures' pass reads. */
export function tappedPass(relayers: readonly WatchedRelayer[], routes: readonly WatchedRoute[], now: number): { pass: EconomicsPass; tap: DeliveryTap } {
  const pass = { now, relayers, acc: new EconomicsAccumulator(relayers, now), failures: new RouteFailures(routes, now) };
  return {
    pass,
    tap: (a) => {
      pass.acc.add(a.delivery);
      pass.failures.add(a);
    },
  };
}

/** A pass of its own over the cache, the same as the figures' (when no figures' pass was tapped). */
export function ownPass(figures: RelayerFigures, now: number): EconomicsPass {
  const scope = figures.scope(now);
  const { pass, tap } = tappedPass(scope.relayers, scope.routes, now);
  figures.figures(scope, tap);
  return pass;
}
