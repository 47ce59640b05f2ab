/**
 * The core's part that answers the Relayers view: the figures of the watched relayers and routes,
 * computed from the core's cached messages (no Data API request), so each poll cycle's changes show on
 * the next read.
 */
import type { CacheSummary } from '../../shared/contract';
import type { RelayerOverview } from '../../shared/relayers';
import type { Store } from '../store';
import { RouteMessages } from '../store/route-messages';
import { countedMessages, type FigureTarget } from './counted-messages';
import { deliveryOfColumns, pendingOfColumns, type Delivery, type Pending } from './delivery-record';
import { attribute, BUCKET_MS, relayerRows, routeRows, watchedRelayerOf, WINDOW_MS, type FigureInputs } from './figures';

/** How far back a watched relayer's last delivery is looked for (figures cover the last 24 h). */
export const LOOKBACK_MS = 7 * 24 * 3_600_000;

export class RelayerFigures {
  private readonly rows: RouteMessages;

  constructor(private readonly store: Store) {
    this.rows = new RouteMessages(store.db);
  }

  /**
   * Deliveries of the last 24 h (every figure's window), plus older ones back to LOOKBACK_MS only for
   * watched relayers with none in the window (their last delivery): reading every record of a week for
   * each poll batch cost seconds on a busy cache.
   */
  inputs(now: number): FigureInputs {
    const relayers = this.store.relayerWatches.listRelayers();
    const routes = this.store.relayerWatches.listRoutes();
    if (!routes.length) return { now, relayers, routes, deliveries: [], pending: [] };
    const sec = (ms: number) => Math.floor(ms / 1000);
    const read = (from: number, until: number): Delivery[] => {
      const out: Delivery[] = [];
      for (const row of this.rows.deliveredBetween(sec(from), sec(until))) {
        const d = deliveryOfColumns(row);
        if (d) out.push(d);
      }
      return out;
    };
    const deliveries = read(now - WINDOW_MS, now + 1000);
    const seen = new Set(attribute({ relayers, routes, deliveries }).map((a) => a.relayer.toLowerCase()));
    const quiet = relayers.filter((r) => !seen.has(r.address.toLowerCase()));
    if (quiet.length) {
      const older = read(now - LOOKBACK_MS, now - WINDOW_MS).filter((d) => watchedRelayerOf(quiet, d) !== undefined);
      deliveries.push(...older);
    }
    const pending = this.rows
      .pendingTracked()
      .map(pendingOfColumns)
      .filter((p): p is Pending => p !== null);
    return { now, relayers, routes, deliveries, pending };
  }

  overview(now: number): RelayerOverview {
    const inputs = this.inputs(now);
    const attributed = attribute(inputs);
    return { at: now, bucketMs: BUCKET_MS, relayers: relayerRows(inputs, attributed), routes: routeRows(inputs, attributed) };
  }

  /** The cached messages one figure counts, newest first. */
  counted(now: number, target: FigureTarget): CacheSummary[] {
    return this.rows.summaries(countedMessages(this.inputs(now), target));
  }
}
