/** Which watched routes a message travels (a route is matched like a feed filtered by source and destination). */
import type { WatchedRoute } from '../../shared/relayers';
import { canonicalNetwork, type Network } from '../../shared/validators';
import { matchesFeed } from '../watch/watcher-index';

export function routesOf(routes: readonly WatchedRoute[], raw: Record<string, unknown>, network: Network): WatchedRoute[] {
  const net = canonicalNetwork(network);
  return routes.filter(
    (r) => canonicalNetwork(r.network) === net && matchesFeed({ sourceBlockchainId: r.sourceChain, destinationBlockchainId: r.destinationChain }, raw),
  );
}
