import type { Network } from '../../shared/validators';
import type { FeedInfo } from './watcher-info';
import { routeKey } from './watcher-key';

/** The columns of `route_watches` the watcher index needs. */
export interface RouteWatcherRow {
  id: string;
  network: string;
  source_chain: string;
  destination_chain: string;
  baseline_done: number;
  baseline_floor: number | null;
  created_at: number;
  history_from: number | null;
}

/** A route never notifies per message: its alerts are relayer-silent and route-backlog episodes. */
const SILENT = { new: false, left_pending: false, receipt_delivered: false, stuck: false };

/** A watched route as a watcher: a feed filtered on its source and destination chains, under `route:<id>`. */
export function routeWatcherInfo(r: RouteWatcherRow): FeedInfo {
  return {
    key: routeKey(r.id),
    id: r.id,
    network: r.network as Network,
    notify: SILENT,
    baselineDone: r.baseline_done === 1,
    baselineFloor: r.baseline_floor,
    since: r.created_at,
    ...(r.history_from !== null ? { historyFrom: r.history_from } : {}),
    filter: { sourceBlockchainId: r.source_chain, destinationBlockchainId: r.destination_chain },
  };
}
