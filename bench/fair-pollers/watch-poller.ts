/**
 * The fair per-watch poller of the grid's routes-and-relayers row: every interval, one list per watch read
 * from its head down to `depthMs` before now: each route's list filtered on its source and destination
 * chains, each relayer's address list. What it reads is judged against the same ground truth as the core
 * (a route's messages until their delivery; a relayer's deliveries on the watched routes are among them).
 */
import type { Clock } from '../../src/shared/clock';
import { FairPoller, type FairPollerOptions } from './fair-poller';
import type { Watched } from './transition-tracker';

/** A route by its chains' blockchain IDs. */
export interface RouteFilter {
  sourceBlockchainId: string;
  destinationBlockchainId: string;
}

export class WatchPoller extends FairPoller {
  constructor(
    url: string,
    routes: readonly RouteFilter[],
    relayers: readonly string[],
    watched: Watched,
    clock: Clock,
    depthMs: number,
    o: FairPollerOptions = {},
  ) {
    const lists = [
      ...routes.map((r) => ({ path: '/v1/teleporter/messages', filter: { ...r } })),
      ...relayers.map((a) => ({ path: `/v1/teleporter/addresses/${a}/messages` })),
    ];
    // Every list at once, over four sockets.
    super(url, lists, watched, clock, depthMs, o, { connections: 4, atOnce: lists.length });
  }
}
