/** Which watched relayers are silent and which watched routes are backlogged now, from the figures. */
import type { WatchedRoute } from '../../shared/relayers';
import { canonicalNetwork, type Network } from '../../shared/validators';
import { relayerSilent, routeBacklog } from './episodes';
import type { FigureScope, Figures } from './figure-accumulator';
import { MINUTE_MS } from '../../shared/time';

/** Episode keys: one meaning each, never shared between the two conditions. */
export const silentKey = (network: Network, address: string) => `relayer-silent:${canonicalNetwork(network)}:${address.toLowerCase()}`;

/** By the route itself, not its local ID: replicas with the same config give it the same key. */
export const backlogKey = (r: Pick<WatchedRoute, 'network' | 'sourceChain' | 'destinationChain'>) =>
  `route-backlog:${canonicalNetwork(r.network)}:${r.sourceChain}:${r.destinationChain}`;

/** A silent relayer: since when it is quiet, and since when the oldest message on its routes waits, on which route (what its alert says). */
export interface Silence {
  quietSince: number;
  pendingSince: number;
  sourceChain: string;
  destinationChain: string;
}

export interface Conditions {
  /** Every key evaluated (watched, alert on). */
  watched: Set<string>;
  /** Keys whose condition holds. */
  holding: Set<string>;
  /** For each holding key, when its condition began to hold (ms), from the records' times alone. */
  since: Map<string, number>;
  /** For each silent relayer key, its silence. */
  silence: Map<string, Silence>;
}

export function evaluateConditions(scope: FigureScope, figures: Figures): Conditions {
  const watched = new Set<string>();
  const holding = new Set<string>();
  const since = new Map<string, number>();
  const silence = new Map<string, Silence>();
  const routes = figures.overview.routes;
  const byId = new Map(routes.map((r) => [r.route.id, r]));
  for (const r of scope.relayers) {
    if (!r.alert) continue;
    const key = silentKey(r.network, r.address);
    watched.add(key);
    // Its routes: the watched routes it has delivered on (a relayer never seen delivering has none to fall silent on).
    const { lastDeliveryAt: last, routeIds: itsRoutes } = figures.activity(r);
    // The oldest message waiting on its routes, and on which.
    let oldest: Omit<Silence, 'quietSince'> | null = null;
    for (const id of itsRoutes) {
      const row = byId.get(id);
      if (row?.oldestPendingSince == null || (oldest && oldest.pendingSince <= row.oldestPendingSince)) continue;
      oldest = { pendingSince: row.oldestPendingSince, sourceChain: row.route.sourceChain, destinationChain: row.route.destinationChain };
    }
    const silent = relayerSilent({
      now: scope.now,
      lastDeliveryAt: last,
      watchedSince: r.createdAt,
      oldestPendingOnItsRoutes: oldest?.pendingSince ?? null,
      silentMinutes: r.silentMinutes,
      pendingMinutes: r.pendingMinutes,
    });
    if (silent && oldest) {
      holding.add(key);
      const quietSince = Math.max(last ?? r.createdAt, r.createdAt);
      since.set(key, Math.max(quietSince + r.silentMinutes * MINUTE_MS, oldest.pendingSince + r.pendingMinutes * MINUTE_MS));
      silence.set(key, { quietSince, ...oldest });
    }
  }
  for (const row of routes) {
    if (!row.route.alert) continue;
    const key = backlogKey(row.route);
    watched.add(key);
    if (routeBacklog({ now: scope.now, oldestPendingSince: row.oldestPendingSince, backlogMinutes: row.route.backlogMinutes })) {
      holding.add(key);
      since.set(key, (row.oldestPendingSince as number) + row.route.backlogMinutes * MINUTE_MS);
    }
  }
  return { watched, holding, since, silence };
}
