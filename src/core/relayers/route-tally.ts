/** One watched route's row figures, added one delivery at a time (its pending messages come at the end). */
import type { RouteHistory, RouteRow, WatchedRoute } from '../../shared/relayers';
import type { Attributed } from './attribution';
import type { Pending } from './delivery-record';
import { LatencyHistogram } from './latency-histogram';
import { routesOf } from './route-match';
import { HOUR_MS } from '../../shared/time';
import { inWindow, WINDOW_MS } from './windows';

const TOP_RELAYERS = 3;
/** A route whose history is not said: held for the whole day, no read going on. */
const WHOLE_DAY: RouteHistory = { from: null, reading: false, readsFrom: null };

export class RouteTally {
  private lastHour = 0;
  private day = 0;
  /** Deliveries in the window by the relayer they count for (as attributed, case kept): one entry per relayer. */
  private readonly byRelayer = new Map<string, number>();
  private readonly latency = new LatencyHistogram();

  constructor(private readonly now: number) {}

  /** A delivery that travelled this route (any age: only the windows count). */
  add(a: Attributed): void {
    const d = a.delivery;
    if (inWindow(this.now, HOUR_MS, d.deliveredAt)) this.lastHour++;
    if (!inWindow(this.now, WINDOW_MS, d.deliveredAt)) return;
    this.day++;
    this.byRelayer.set(a.relayer, (this.byRelayer.get(a.relayer) ?? 0) + 1);
    if (d.sentAt !== null) this.latency.add((d.deliveredAt - d.sentAt) / 1000);
  }

  /** Its row; `pending`: every pending message read (those on this route count), `labelOf`: a watched relayer's label, `history`: what it holds. */
  row(route: WatchedRoute, pending: readonly Pending[], labelOf: (address: string) => string, history: RouteHistory = WHOLE_DAY): RouteRow {
    const mine = pending.filter((p) => routesOf([route], p.chains, p.network).length > 0);
    const top = [...this.byRelayer]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, TOP_RELAYERS)
      .map(([address, n]) => ({ address, label: labelOf(address), deliveries: n, share: n / this.day }));
    return {
      route,
      history,
      pending: mine.length,
      oldestPendingSince: mine.reduce<number | null>((m, p) => (m === null || p.sentAt < m ? p.sentAt : m), null),
      deliveriesLastHour: this.lastHour,
      deliveries24h: this.day,
      latency: this.latency.figures(),
      topRelayers: top,
    };
  }
}
