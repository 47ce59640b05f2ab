/**
 * The per-route failed-execution alert's figures: for each watched route, the deliveries of the last
 * hour (by destination time, any relayer) whose execution failed (`messageExecuted: false`), counted
 * from the same pass over the cache as the relayer figures. A route holds when that count is at or
 * above the threshold; the episode starts at the failure that reached it (read from the records, so
 * two replicas name the same episode).
 */
import type { WatchedRoute } from '../../shared/relayers';
import type { Attributed } from './attribution';
import { HOUR_MS } from './economics';

export const failedKey = (routeId: string) => `failed:${routeId}`;

export interface RouteFailureCount {
  route: WatchedRoute;
  /** Failed executions delivered in the last hour. */
  count: number;
  /** Delivery times of those failures, oldest first. */
  times: number[];
}

export class RouteFailures {
  private readonly times = new Map<string, number[]>();

  constructor(
    private readonly routes: readonly WatchedRoute[],
    private readonly now: number,
  ) {}

  add(a: Attributed): void {
    const d = a.delivery;
    if (d.executed || d.deliveredAt > this.now || d.deliveredAt <= this.now - HOUR_MS) return;
    for (const id of a.routeIds) {
      const t = this.times.get(id);
      if (t) t.push(d.deliveredAt);
      else this.times.set(id, [d.deliveredAt]);
    }
  }

  counts(): RouteFailureCount[] {
    return this.routes.map((route) => {
      const times = (this.times.get(route.id) ?? []).sort((x, y) => x - y);
      return { route, count: times.length, times };
    });
  }
}

/** The routes whose alert holds now (their alert on and the count at or above the threshold), with when it began to hold. */
export function holdingRoutes(counts: readonly RouteFailureCount[], threshold: number): Map<string, { count: RouteFailureCount; since: number }> {
  const out = new Map<string, { count: RouteFailureCount; since: number }>();
  for (const c of counts) if (c.route.alert && c.count >= threshold) out.set(failedKey(c.route.id), { count: c, since: c.times[threshold - 1]! });
  return out;
}
