/**
 * Since when the watched routes' figures hold their deliveries. A route's first read takes only its last
 * hour by default (the setting routeHistoryHours), so for its first day its day figures count from
 * where that read reached, not a whole day: the Relayers view says "since HH:MM" until a day has passed.
 */
import type { WatchStore } from '../store/watch-store';
import { isRouteKey } from '../store/watcher-key';
import { WINDOW_MS } from './windows';

/**
 * The latest of the watched routes' history starts (ms): where each one's first read reached (its
 * baseline floor), the moment it was watched while that read is still going on; null when every route
 * holds the whole last day (or its whole list, when the list ended first), or none is watched.
 */
export function routesHistoryFrom(watches: Pick<WatchStore, 'watcherInfos'>, now: number): number | null {
  let from: number | null = null;
  for (const w of watches.watcherInfos().feeds) {
    if (!isRouteKey(w.key)) continue;
    const start = !w.baselineDone ? w.since : w.baselineFloor === null ? null : w.baselineFloor * 1000;
    if (start !== null && (from === null || start > from)) from = start;
  }
  return from !== null && from > now - WINDOW_MS ? from : null;
}
