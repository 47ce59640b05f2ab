/**
 * The chains' side of the comparison: the deliveries the cache holds for one watched relayer over a
 * window, by route (attributed as every relayer figure is: its deliverer, else its reward address).
 */
import type { WatchedRelayer } from '../../shared/relayers';
import { canonicalNetwork } from '../../shared/validators';
import type { Store } from '../store';
import { RouteMessages } from '../store/route-messages';
import { watchedRelayerOf } from './attribution';
import { deliveryOfColumns } from './delivery-record';
import { routeKey } from './relayer-own-metrics';

export class ChainDeliveries {
  private readonly rows: RouteMessages;

  constructor(store: Store) {
    this.rows = new RouteMessages(store.db, () => store.source());
  }

  /** Deliveries counted for `relayer` with a destination time in [from, to] (ms, to the second), by routeKey. */
  byRoute(relayer: WatchedRelayer, all: readonly WatchedRelayer[], from: number, to: number): Map<string, number> {
    const counts = new Map<string, number>();
    const net = canonicalNetwork(relayer.network);
    const me = relayer.address.toLowerCase();
    for (const row of this.rows.deliveredBetween(Math.floor(from / 1000), Math.floor(to / 1000) + 1)) {
      const d = deliveryOfColumns(row);
      if (!d || canonicalNetwork(d.network) !== net || watchedRelayerOf(all, d)?.address.toLowerCase() !== me) continue;
      const key = routeKey(d.chains.sourceBlockchainId, d.chains.destinationBlockchainId);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  }
}
