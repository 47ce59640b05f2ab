/** The contract's calls for watched relayers and routes and the Relayers view's figures. */
import type { MonitorEvent, MonitorHandlers, Settings } from '../../shared/contract';
import { MonitorError } from '../../shared/errors';
import { ownChainsOf, routeLabel } from '../../shared/chains';
import { resolveRouteInput, routeIdentity } from '../../shared/chain-input';
import type { RelayerEconomics, WatchedRelayer, WatchedRoute } from '../../shared/relayers';
import type { Clock } from '../../shared/clock';
import type { Network } from '../../shared/validators';
import { RelayerFigures } from '../relayers/relayer-figures';
import { askRouteHistory } from '../relayers/route-history';
import type { Logger } from '../log/logger';
import type { Store } from '../store';
import { HOUR_MS } from '../../shared/time';

/** What the relayer handlers use, and all they can reach. */
export interface RelayerNeeds {
  store: Store;
  settings(): Settings;
  clock: Clock;
  emit(e: MonitorEvent): void;
  logger: Pick<Logger, 'info'>;
  /** Watched relayers' fuel and earnings from the last poll cycle (parts/relayer-economics.ts). */
  economics(): RelayerEconomics;
}

type RelayerMethods =
  | 'listRelayers'
  | 'addRelayer'
  | 'removeRelayer'
  | 'listRoutes'
  | 'addRoute'
  | 'removeRoute'
  | 'readRouteHistory'
  | 'relayerOverview'
  | 'relayerFigureMessages'
  | 'relayerEconomics';

/** A watch as its duplicate's refusal names it: its label and what it watches ("ours" (0x1234…abcd), "c-to-beam" (C-Chain → Beam)). */
const named = (label: string, what: string) => (label ? `"${label}" (${what})` : what);

export function createRelayerHandlers(ctx: RelayerNeeds): Pick<MonitorHandlers, RelayerMethods> {
  const watches = ctx.store.relayerWatches;
  const figures = new RelayerFigures(ctx.store);
  const ownChains = () => ownChainsOf(ctx.settings().dataSource);
  /** A route's chains as their cb58 IDs (names, 0x IDs and EVM chain IDs resolved); a problem is refused at its field. */
  const resolveRoute = (input: { source: string; destination: string }, network: Network) => {
    const r = resolveRouteInput(input, { network, ownChains: ownChains() });
    if (!r.ok) throw new MonitorError({ kind: 'invalid_input', ...r.problems[0]! });
    return r;
  };
  /** The watched route with this identity (network, source, destination), however it was named when added. */
  const routeWatchedAs = (network: Network, source: string, destination: string): WatchedRoute | undefined => {
    const id = routeIdentity(network, source, destination);
    return watches.listRoutes().find((r) => routeIdentity(r.network, r.sourceChain, r.destinationChain) === id);
  };
  const relayerName = (r: WatchedRelayer) => named(r.label, r.address);
  return {
    listRelayers: () => watches.listRelayers(),
    addRelayer: (input) => {
      const relayer = {
        address: input.address,
        label: input.label?.trim() ?? '',
        network: input.network ?? ctx.settings().network,
        silentMinutes: input.silentMinutes ?? ctx.settings().relayerSilentMinutes,
        pendingMinutes: input.pendingMinutes ?? ctx.settings().relayerPendingMinutes,
        alert: input.alert ?? true,
        createdAt: ctx.clock.now(),
      };
      if (!watches.addRelayer(relayer)) {
        const existing = watches.getRelayer(input.address);
        const as = existing ? relayerName(existing) : input.address;
        throw new MonitorError({ kind: 'invalid_input', field: 'address', message: `This relayer is already watched as ${as}.` });
      }
      ctx.emit({ type: 'watchlist-changed' });
      return relayer;
    },
    removeRelayer: ({ address }) => {
      if (!watches.removeRelayer(address)) throw new MonitorError({ kind: 'not_found', field: 'address', message: `${address} is not a watched relayer.` });
      ctx.emit({ type: 'watchlist-changed' });
    },
    listRoutes: () => watches.listRoutes(),
    addRoute: (input) => {
      const network = input.network ?? ctx.settings().network;
      const { source, destination } = resolveRoute(input, network);
      const existing = routeWatchedAs(network, source, destination);
      if (existing) {
        const as = named(existing.label, routeLabel(existing.sourceChain, existing.destinationChain, ownChains()));
        throw new MonitorError({ kind: 'invalid_input', field: 'destination', message: `This route is already watched as ${as}.` });
      }
      const route = watches.addRoute({
        label: input.label?.trim() ?? '',
        network,
        sourceChain: source,
        destinationChain: destination,
        backlogMinutes: input.backlogMinutes ?? ctx.settings().routeBacklogMinutes,
        alert: input.alert ?? true,
        createdAt: ctx.clock.now(),
      });
      if (!route) throw new MonitorError({ kind: 'invalid_input', field: 'destination', message: 'This route is already watched.' });
      ctx.emit({ type: 'watchlist-changed' });
      return route;
    },
    removeRoute: ({ id }) => {
      if (!watches.removeRoute(id)) throw new MonitorError({ kind: 'not_found', field: 'id', message: `There is no watched route with ID ${id}.` });
      ctx.emit({ type: 'watchlist-changed' });
    },
    readRouteHistory: (input) => {
      const network = input.network ?? ctx.settings().network;
      const byChains = input.routeId === undefined ? resolveRoute({ source: input.source, destination: input.destination }, network) : null;
      const id = input.routeId ?? (byChains ? routeWatchedAs(network, byChains.source, byChains.destination)?.id : undefined);
      const opts = { hours: input.hours, now: ctx.clock.now(), firstReadMs: ctx.settings().routeHistoryHours * HOUR_MS };
      const read = id === undefined ? null : askRouteHistory(ctx.store, id, opts);
      if (!read) {
        const which = byChains ? routeLabel(byChains.source, byChains.destination, ownChains()) : `with ID ${input.routeId}`;
        throw new MonitorError({ kind: 'not_found', field: 'routeId', message: `There is no watched route ${which}: watch it first.` });
      }
      if (read.started) {
        ctx.logger.info('route history asked', { routeId: read.routeId, hours: input.hours });
        ctx.emit({ type: 'watchlist-changed' });
      }
      return read;
    },
    relayerOverview: () => figures.overview(ctx.clock.now()),
    relayerFigureMessages: (target) => figures.counted(ctx.clock.now(), target),
    relayerEconomics: () => ctx.economics(),
  };
}
