/**
 * Failed executions per watched route: the deliveries of the last hour and day (by destination time,
 * any relayer) whose execution failed (`messageExecuted: false`), counted from the same pass over the
 * cache as the relayer figures. The route's alert holds when the last hour's count is at or above the
 * threshold; the episode starts at the failure that reached it (read from the records, so two replicas
 * name the same episode).
 */
import { routeLabel, type OwnChain } from '../../shared/chains';
import type { RouteFailureRow, WatchedRoute } from '../../shared/relayers';
import type { Attributed } from './attribution';
import { DAY_MS, HOUR_MS } from '../../shared/time';
import { MAX_LISTED_FAILED_MESSAGES } from '../../shared/policy';

export const failedKey = (routeId: string) => `failed:${routeId}`;

export interface RouteFailureCount {
  route: WatchedRoute;
  /** Failed executions delivered in the last hour. */
  count: number;
  /** Delivery times of those failures, oldest first. */
  times: number[];
}

interface Failure {
  at: number;
  messageId: string;
}

export class RouteFailures {
  private readonly day = new Map<string, Failure[]>();

  constructor(
    private readonly routes: readonly WatchedRoute[],
    private readonly now: number,
  ) {}

  add(a: Attributed): void {
    const d = a.delivery;
    if (d.executed || d.deliveredAt > this.now || d.deliveredAt <= this.now - DAY_MS) return;
    for (const id of a.routeIds) {
      const f = this.day.get(id);
      if (f) f.push({ at: d.deliveredAt, messageId: d.messageId });
      else this.day.set(id, [{ at: d.deliveredAt, messageId: d.messageId }]);
    }
  }

  /** Each watched route's failures of the last hour (what the alert counts). */
  counts(): RouteFailureCount[] {
    return this.routes.map((route) => {
      const times = this.lastHour(route.id).map((f) => f.at);
      return { route, count: times.length, times };
    });
  }

  /** The Relayers view's rows: each watched route's failures of the last hour and day, newest first. */
  rows(firing: (routeId: string) => boolean, own: readonly OwnChain[] = []): RouteFailureRow[] {
    return this.routes.map((route) => {
      const day = this.sorted(route.id);
      const hour = day.filter((f) => f.at > this.now - HOUR_MS);
      const newest = (fs: Failure[]) => ({
        count: fs.length,
        messageIds: fs
          .slice(-MAX_LISTED_FAILED_MESSAGES)
          .reverse()
          .map((f) => f.messageId),
      });
      return {
        routeId: route.id,
        label: route.label,
        routeLabel: routeLabel(route.sourceChain, route.destinationChain, own),
        sourceChain: route.sourceChain,
        destinationChain: route.destinationChain,
        alert: route.alert,
        firing: firing(route.id),
        hour: newest(hour),
        day: newest(day),
      };
    });
  }

  private sorted(routeId: string): Failure[] {
    return (this.day.get(routeId) ?? []).sort((x, y) => x.at - y.at);
  }

  private lastHour(routeId: string): Failure[] {
    return this.sorted(routeId).filter((f) => f.at > this.now - HOUR_MS);
  }
}

/**
 * The routes whose alert holds now (their alert on and the count at or above the threshold), with when
 * it began to hold; none while the threshold is 0 (the alert is off).
 */
export function holdingRoutes(counts: readonly RouteFailureCount[], threshold: number): Map<string, { count: RouteFailureCount; since: number }> {
  const out = new Map<string, { count: RouteFailureCount; since: number }>();
  if (threshold <= 0) return out;
  for (const c of counts) if (c.route.alert && c.count >= threshold) out.set(failedKey(c.route.id), { count: c, since: c.times[threshold - 1]! });
  return out;
}
