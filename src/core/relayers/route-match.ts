/** Which watched routes a message travels (a route is matched like a feed filtered by source and destination). */
import type { WatchedRoute } from '../../shared/relayers';
import { canonicalNetwork, type Network } from '../../shared/validators';
import { matchesFeed } from '../watch/watcher-index';
import type { RouteChains } from './delivery-record';

export function routesOf(routes: readonly WatchedRoute[], chains: RouteChains, network: Network): WatchedRoute[] {
  const net = canonicalNetwork(network);
  return routes.filter(
    (r) =>
      canonicalNetwork(r.network) === net && matchesFeed({ sourceBlockchainId: r.sourceChain, destinationBlockchainId: r.destinationChain }, { ...chains }),
  );
}
