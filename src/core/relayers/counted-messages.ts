/** The messages one figure of the overview counts: what its click-through lists, by the same rules as the figure. */
import type { RelayerFigure } from '../../shared/relayers';
import { attribute, HOUR_MS, WINDOW_MS, type FigureInputs } from './figures';
import { routesOf } from './route-match';

export interface FigureTarget {
  /** A relayer row's address. */
  relayer?: string;
  /** A watched route's ID. */
  routeId?: string;
  figure: RelayerFigure;
}

/** Message IDs, newest first (by destination time for deliveries, source time for pending ones). */
export function countedMessages(inputs: FigureInputs, t: FigureTarget): string[] {
  const { now } = inputs;
  if (t.figure === 'pending') {
    const routes = inputs.routes.filter((r) => t.routeId === undefined || r.id === t.routeId);
    return inputs.pending
      .filter((p) => routesOf(routes, p.chains, p.network).length > 0)
      .sort((a, b) => b.sentAt - a.sentAt)
      .map((p) => p.messageId);
  }
  const span = t.figure === 'deliveries1h' ? HOUR_MS : WINDOW_MS;
  return attribute(inputs)
    .filter((a) => t.relayer === undefined || a.relayer.toLowerCase() === t.relayer.toLowerCase())
    .filter((a) => t.routeId === undefined || a.routeIds.includes(t.routeId))
    .filter((a) => a.delivery.deliveredAt > now - span && a.delivery.deliveredAt <= now)
    .filter((a) => t.figure !== 'latency' || a.delivery.sentAt !== null)
    .sort((a, b) => b.delivery.deliveredAt - a.delivery.deliveredAt)
    .map((a) => a.delivery.messageId);
}
