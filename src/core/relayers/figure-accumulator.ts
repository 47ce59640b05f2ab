/**
 * The Relayers view's figures in one pass over the deliveries: each delivery read is attributed and
 * added to its relayer's and routes' tallies, then dropped, so memory depends on the relayers, routes
 * and distinct latencies, not on how many deliveries a day holds.
 */
import type { RelayerOverview, RouteHistory, WatchedRelayer, WatchedRoute } from '../../shared/relayers';
import type { Network } from '../../shared/validators';
import { attributionOf, relayerKey, type Attributed } from './attribution';
import type { Delivery, Pending } from './delivery-record';
import { RelayerTally } from './relayer-tally';
import { RouteTally } from './route-tally';
import { BUCKET_MS, inWindow, WINDOW_MS } from './windows';

/** What one computation of the figures covers: its time and the watched relayers and routes. */
export interface FigureScope {
  now: number;
  relayers: readonly WatchedRelayer[];
  routes: readonly WatchedRoute[];
}

/** Sees each attributed delivery as it is read (the metrics' counters), in read order. */
export type DeliveryTap = (a: Attributed) => void;

/** What the relayer-silent rule reads of a relayer, over every delivery read (not only the 24 h window). */
interface RelayerActivity {
  lastDeliveryAt: number | null;
  routeIds: ReadonlySet<string>;
}

export interface Figures {
  overview: RelayerOverview;
  activity(r: WatchedRelayer): RelayerActivity;
}

export class FigureAccumulator {
  /** Rows by relayer key: watched relayers first in the order added, then deliverers as first read. */
  private readonly relayers = new Map<string, RelayerTally>();
  private readonly routes = new Map<string, RouteTally>();
  /** Every relayer's deliveries in the window by route: the denominators of the relayers' shares. */
  private readonly routeTotals = new Map<string, number>();
  /** Relayers (lower case, any network) with a delivery read: a watched one missing here gets a look-back. */
  private readonly seen = new Set<string>();

  constructor(
    private readonly scope: FigureScope,
    private readonly tap?: DeliveryTap,
  ) {
    // Each watched relayer has a row even with no deliveries.
    for (const r of scope.relayers) this.tally(r.address, r.network);
    for (const r of scope.routes) this.routes.set(r.id, new RouteTally(scope.now));
  }

  /** Counts a delivery (any age) for its relayer and the watched routes it travelled; one on no watched route counts nowhere. */
  add(d: Delivery): void {
    const a = attributionOf(this.scope.relayers, this.scope.routes, d);
    if (!a) return;
    this.seen.add(a.relayer.toLowerCase());
    this.tally(a.relayer, d.network).add(a);
    const inDay = inWindow(this.scope.now, WINDOW_MS, d.deliveredAt);
    for (const id of a.routeIds) {
      if (inDay) this.routeTotals.set(id, (this.routeTotals.get(id) ?? 0) + 1);
      this.routes.get(id)?.add(a);
    }
    this.tap?.(a);
  }

  /** Watched relayers with no delivery added so far (matched by address alone): whose last delivery is looked for further back. */
  quiet(): WatchedRelayer[] {
    return this.scope.relayers.filter((r) => !this.seen.has(r.address.toLowerCase()));
  }

  /**
   * The figures of everything added, with the pending messages read (few: a list); `historyFrom` says since
   * when they hold deliveries, `histories` each route's (by route ID; absent: the whole day).
   */
  result(pending: readonly Pending[], historyFrom: number | null, histories: ReadonlyMap<string, RouteHistory> = new Map()): Figures {
    const { now, relayers, routes } = this.scope;
    const watched = new Map(relayers.map((r) => [relayerKey(r.address, r.network), r]));
    const rows = [...this.relayers].map(([k, t]) => t.row(watched.get(k), this.routeTotals));
    const firstUnwatched = relayers.length;
    const others = rows.slice(firstUnwatched).sort((a, b) => b.deliveries24h - a.deliveries24h || a.address.localeCompare(b.address));
    const labels = new Map(relayers.map((r) => [relayerKey(r.address, r.network), r.label]));
    const routeRows = routes.map((route) =>
      (this.routes.get(route.id) as RouteTally).row(route, pending, (address) => labels.get(relayerKey(address, route.network)) ?? '', histories.get(route.id)),
    );
    const tallies = this.relayers;
    return {
      overview: { at: now, historyFrom, bucketMs: BUCKET_MS, relayers: [...rows.slice(0, firstUnwatched), ...others], routes: routeRows },
      activity(r) {
        const t = tallies.get(relayerKey(r.address, r.network));
        return { lastDeliveryAt: t?.lastDeliveryAt ?? null, routeIds: t?.routesEver ?? new Set() };
      },
    };
  }

  private tally(address: string, network: Network): RelayerTally {
    const k = relayerKey(address, network);
    let t = this.relayers.get(k);
    if (!t) this.relayers.set(k, (t = new RelayerTally(address, network, this.scope.now)));
    return t;
  }
}
