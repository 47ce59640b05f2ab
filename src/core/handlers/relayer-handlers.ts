/** The contract's calls for watched relayers and routes and the Relayers view's figures. */
import type { MonitorHandlers } from '../../shared/contract';
import { MonitorError } from '../../shared/errors';
import { chainLabel } from '../../shared/chains';
import { canonicalNetwork } from '../../shared/validators';
import { RelayerFigures } from '../relayers/relayer-figures';
import { askRouteHistory } from '../relayers/route-history';
import type { CoreContext } from './context';

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

export function createRelayerHandlers(ctx: CoreContext): Pick<MonitorHandlers, RelayerMethods> {
  const watches = ctx.store.relayerWatches;
  const figures = new RelayerFigures(ctx.store);
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
      if (!watches.addRelayer(relayer))
        throw new MonitorError({ kind: 'invalid_input', field: 'address', message: `${input.address} is already watched as a relayer.` });
      ctx.emit({ type: 'watchlist-changed' });
      return relayer;
    },
    removeRelayer: ({ address }) => {
      if (!watches.removeRelayer(address)) throw new MonitorError({ kind: 'not_found', field: 'address', message: `${address} is not a watched relayer.` });
      ctx.emit({ type: 'watchlist-changed' });
    },
    listRoutes: () => watches.listRoutes(),
    addRoute: (input) => {
      const route = watches.addRoute({
        label: input.label?.trim() ?? '',
        network: input.network ?? ctx.settings().network,
        sourceChain: input.source,
        destinationChain: input.destination,
        backlogMinutes: input.backlogMinutes ?? ctx.settings().routeBacklogMinutes,
        alert: input.alert ?? true,
        createdAt: ctx.clock.now(),
      });
      if (!route) {
        const name = `${chainLabel(input.source)} → ${chainLabel(input.destination)}`;
        throw new MonitorError({ kind: 'invalid_input', field: 'destination', message: `The route ${name} is already watched.` });
      }
      ctx.emit({ type: 'watchlist-changed' });
      return route;
    },
    removeRoute: ({ id }) => {
      if (!watches.removeRoute(id)) throw new MonitorError({ kind: 'not_found', field: 'id', message: `There is no watched route with ID ${id}.` });
      ctx.emit({ type: 'watchlist-changed' });
    },
    readRouteHistory: (input) => {
      const net = canonicalNetwork(input.network ?? ctx.settings().network);
      const id =
        input.routeId ??
        watches.listRoutes().find((r) => canonicalNetwork(r.network) === net && r.sourceChain === input.source && r.destinationChain === input.destination)?.id;
      const opts = { hours: input.hours, now: ctx.clock.now(), firstReadMs: ctx.settings().routeHistoryHours * 3_600_000 };
      const read = id === undefined ? null : askRouteHistory(ctx.store, id, opts);
      if (!read) {
        const which = input.routeId !== undefined ? `with ID ${input.routeId}` : `${chainLabel(input.source ?? '')} → ${chainLabel(input.destination ?? '')}`;
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
