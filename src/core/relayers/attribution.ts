/** Which relayer a delivery counts for and which watched routes it travelled: the rule every figure shares. */
import type { WatchedRelayer, WatchedRoute } from '../../shared/relayers';
import { canonicalNetwork, type Network } from '../../shared/validators';
import type { Delivery } from './delivery-record';
import { routesOf } from './route-match';

/** A delivery with the relayer it counts for and the watched routes it travelled. */
export interface Attributed {
  delivery: Delivery;
  /** The watched relayer's address, else the deliverer's. */
  relayer: string;
  routeIds: string[];
}

/** One relayer row per key: the same address on the same network, whatever its case. */
export const relayerKey = (address: string, network: Network) => `${canonicalNetwork(network)}:${address.toLowerCase()}`;

/** The watched relayer a delivery counts for: its deliverer, else its reward address, on the same network. */
export function watchedRelayerOf(relayers: readonly WatchedRelayer[], d: Delivery): WatchedRelayer | undefined {
  const net = canonicalNetwork(d.network);
  const on = relayers.filter((r) => canonicalNetwork(r.network) === net);
  const is = (a: string) => (r: WatchedRelayer) => r.address.toLowerCase() === a.toLowerCase();
  return on.find(is(d.deliverer)) ?? on.find(is(d.rewardAddress));
}

/** The delivery attributed to one relayer; null when it travelled no watched route (it counts nowhere). */
export function attributionOf(relayers: readonly WatchedRelayer[], routes: readonly WatchedRoute[], d: Delivery): Attributed | null {
  const routeIds = routesOf(routes, d.chains, d.network).map((r) => r.id);
  if (!routeIds.length) return null;
  return { delivery: d, relayer: watchedRelayerOf(relayers, d)?.address ?? d.deliverer, routeIds };
}
