/**
 * One identity per watched route in the database: routes stored in another form than their chains'
 * cb58 IDs (an EVM chain ID, kept as given before issue 41) are rewritten at open, and a route that
 * then turns out to be watched twice keeps its older watch (label, thresholds, baseline) only. So an
 * upgrade never leaves one route counted twice.
 */
import { resolveChainInput, routeIdentity } from '../../shared/chain-input';
import type { OwnChain } from '../../shared/chains';
import type { WatchedRoute } from '../../shared/relayers';
import type { Store } from '../store';
import { backlogKey } from './conditions';

export interface RouteRepair {
  /** Routes whose chains were rewritten as cb58 IDs. */
  rewritten: { id: string; from: string; to: string }[];
  /** Newer watches of a route watched twice, removed in favour of the older one. */
  merged: { kept: string; dropped: string }[];
}

/** The stored chain as its cb58 ID, or as stored when it does not resolve (an EVM chain ID no one knows yet). */
function canonical(stored: string, r: WatchedRoute, ownChains: readonly OwnChain[]): string {
  const id = resolveChainInput(stored, 'Chain', { network: r.network, ownChains });
  return id.ok ? id.value : stored;
}

export function repairRouteIdentity(store: Store, ownChains: readonly OwnChain[]): RouteRepair {
  const repair: RouteRepair = { rewritten: [], merged: [] };
  const first = new Map<string, WatchedRoute>();
  const rewrites: { route: WatchedRoute; to: WatchedRoute }[] = [];
  // Oldest first: the first watch of an identity is the one kept.
  for (const r of store.relayerWatches.listRoutes()) {
    const to = { ...r, sourceChain: canonical(r.sourceChain, r, ownChains), destinationChain: canonical(r.destinationChain, r, ownChains) };
    const identity = routeIdentity(to.network, to.sourceChain, to.destinationChain);
    const kept = first.get(identity);
    if (kept) {
      repair.merged.push({ kept: kept.id, dropped: r.id });
      continue;
    }
    first.set(identity, to);
    if (to.sourceChain !== r.sourceChain || to.destinationChain !== r.destinationChain) rewrites.push({ route: r, to });
  }
  if (!repair.merged.length && !rewrites.length) return repair;
  // An open backlog episode follows its route's key, so the upgrade neither ends it nor announces it again.
  const moveEpisode = store.db.prepare(
    `UPDATE OR IGNORE relayer_episodes SET key = ?, source_chain = ?, destination_chain = ? WHERE key = ? AND resolved_at IS NULL`,
  );
  store.transaction(() => {
    // The duplicates go first: a rewritten route may take the very chains one of them was stored with.
    for (const m of repair.merged) store.relayerWatches.removeRoute(m.dropped);
    for (const { route, to } of rewrites) {
      store.relayerWatches.setRouteChains(route.id, to.sourceChain, to.destinationChain);
      moveEpisode.run(backlogKey(to), to.sourceChain, to.destinationChain, backlogKey(route));
      repair.rewritten.push({ id: route.id, from: `${route.sourceChain} → ${route.destinationChain}`, to: `${to.sourceChain} → ${to.destinationChain}` });
    }
  });
  return repair;
}
