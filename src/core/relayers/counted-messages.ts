/** The messages one figure of the overview counts: what its click-through lists, by the same rules as the figure. */
import type { RelayerFigure } from '../../shared/relayers';
import { attributionOf } from './attribution';
import type { Delivery, Pending } from './delivery-record';
import type { FigureScope } from './figure-accumulator';
import { routesOf } from './route-match';
import { HOUR_MS } from '../../shared/time';
import { inWindow, WINDOW_MS } from './windows';

export interface FigureTarget {
  /** A relayer row's address. */
  relayer?: string;
  /** A watched route's ID. */
  routeId?: string;
  figure: RelayerFigure;
}

/**
 * Message IDs, newest first (by destination time for deliveries, source time for pending ones).
 * `deliveries` is read once, as it streams: only the matching IDs are kept (none is read for `pending`).
 */
export function countedMessages(scope: FigureScope, t: FigureTarget, deliveries: Iterable<Delivery>, pending: readonly Pending[]): string[] {
  if (t.figure === 'pending') {
    const routes = scope.routes.filter((r) => t.routeId === undefined || r.id === t.routeId);
    return pending
      .filter((p) => routesOf(routes, p.chains, p.network).length > 0)
      .sort((a, b) => b.sentAt - a.sentAt)
      .map((p) => p.messageId);
  }
  const span = t.figure === 'deliveries1h' ? HOUR_MS : WINDOW_MS;
  const hits: { id: string; at: number }[] = [];
  for (const d of deliveries) {
    if (!inWindow(scope.now, span, d.deliveredAt) || (t.figure === 'latency' && d.sentAt === null)) continue;
    const a = attributionOf(scope.relayers, scope.routes, d);
    if (!a || (t.relayer !== undefined && a.relayer.toLowerCase() !== t.relayer.toLowerCase())) continue;
    if (t.routeId === undefined || a.routeIds.includes(t.routeId)) hits.push({ id: d.messageId, at: d.deliveredAt });
  }
  // A stable sort: deliveries at the same time keep their read order.
  return hits.sort((a, b) => b.at - a.at).map((h) => h.id);
}
