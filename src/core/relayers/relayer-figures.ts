/**
 * The core's part that answers the Relayers view: the figures of the watched relayers and routes,
 * computed from the core's cached messages (no Data API request), so each poll cycle's changes show on
 * the next read. Deliveries stream from the cache one row at a time into the figures: none is kept.
 */
import type { CacheSummary } from '../../shared/contract';
import type { RelayerOverview } from '../../shared/relayers';
import type { Store } from '../store';
import { RouteMessages } from '../store/route-messages';
import { watchedRelayerOf } from './attribution';
import { countedMessages, type FigureTarget } from './counted-messages';
import { deliveryOfColumns, pendingOfColumns, type Delivery, type Pending } from './delivery-record';
import { FigureAccumulator, type DeliveryTap, type FigureScope, type Figures } from './figure-accumulator';
import { latestStart, routeHistories } from './route-history';
import { WINDOW_MS } from './windows';
import { RELAYER_LOOKBACK_MS } from '../../shared/policy';

const sec = (ms: number) => Math.floor(ms / 1000);

export class RelayerFigures {
  private readonly rows: RouteMessages;

  constructor(private readonly store: Store) {
    this.rows = new RouteMessages(store.db, () => store.source());
  }

  /** The watched relayers and routes now. */
  scope(now: number): FigureScope {
    return { now, relayers: this.store.relayerWatches.listRelayers(), routes: this.store.relayerWatches.listRoutes() };
  }

  /**
   * Deliveries of the last 24 h (every figure's window), plus older ones back to RELAYER_LOOKBACK_MS only for
   * watched relayers with none in the window (their last delivery): reading every record of a week for
   * each poll batch cost seconds on a busy cache. `tap` sees each counted delivery as it is read.
   */
  figures(scope: FigureScope, tap?: DeliveryTap): Figures {
    const { now } = scope;
    const acc = new FigureAccumulator(scope, tap);
    if (!scope.routes.length) return acc.result([], null);
    for (const d of this.delivered(now - WINDOW_MS, now + 1000)) acc.add(d);
    const quiet = acc.quiet();
    if (quiet.length) for (const d of this.delivered(now - RELAYER_LOOKBACK_MS, now - WINDOW_MS)) if (watchedRelayerOf(quiet, d) !== undefined) acc.add(d);
    const histories = routeHistories(this.store.watches, now);
    return acc.result(this.pending(), latestStart(histories), histories);
  }

  overview(now: number): RelayerOverview {
    return this.figures(this.scope(now)).overview;
  }

  /** The cached messages one figure counts, newest first. */
  counted(now: number, target: FigureTarget): CacheSummary[] {
    const scope = this.scope(now);
    if (!scope.routes.length) return [];
    // Pending ones first: the cache answers no other read while the deliveries stream.
    const pending = this.pending();
    return this.rows.summaries(countedMessages(scope, target, this.delivered(now - WINDOW_MS, now + 1000), pending));
  }

  /** Deliveries with a destination time from `from` (ms) up to before `until`, one row at a time. */
  private *delivered(from: number, until: number): Generator<Delivery> {
    for (const row of this.rows.deliveredBetween(sec(from), sec(until))) {
      const d = deliveryOfColumns(row);
      if (d) yield d;
    }
  }

  private pending(): Pending[] {
    return this.rows
      .pendingTracked()
      .map(pendingOfColumns)
      .filter((p): p is Pending => p !== null);
  }
}
