/**
 * Since when the watched routes' figures hold their deliveries. A route's first read takes only its last
 * hour by default (the setting routeHistoryHours), so for its first day its day figures count from
 * where that read reached, not a whole day: the Relayers view says "since HH:MM" until a day has passed.
 * A read of its history asked later (readRouteHistory) takes its baseline again, further back.
 */
import type { RouteHistory, RouteHistoryRead } from '../../shared/relayers';
import type { RelayerWatches } from '../store/relayer-watches';
import type { FeedInfo, WatchStore } from '../store/watch-store';
import { routeReadsBackTo } from '../store/watcher-info';
import { isRouteKey, routeIdOf, routeKey } from '../store/watcher-key';
import { WINDOW_MS } from './windows';
import { HOUR_MS } from '../../shared/time';

/**
 * One watched route's history: where its figures start (its baseline floor; while its first read goes on,
 * the moment it was watched; while a later read goes on, what the last one reached; null when it holds
 * the whole last day, or its whole list), and the read in progress, if any.
 */
export function routeHistoryOf(w: FeedInfo, now: number): RouteHistory {
  const start = w.baselineFloor !== null ? w.baselineFloor * 1000 : !w.baselineDone ? w.since : null;
  return {
    from: start !== null && start > now - WINDOW_MS ? start : null,
    reading: !w.baselineDone,
    readsFrom: w.historyFrom ?? null,
  };
}

/** Each watched route's history, by route ID. */
export function routeHistories(watches: Pick<WatchStore, 'watcherInfos'>, now: number): Map<string, RouteHistory> {
  const out = new Map<string, RouteHistory>();
  for (const w of watches.watcherInfos().feeds) if (isRouteKey(w.key)) out.set(routeIdOf(w.key), routeHistoryOf(w, now));
  return out;
}

/**
 * The latest of the watched routes' history starts (ms, see routeHistoryOf): null when every route holds
 * the whole last day (or its whole list), or none is watched.
 */
export function routesHistoryFrom(watches: Pick<WatchStore, 'watcherInfos'>, now: number): number | null {
  return latestStart(routeHistories(watches, now));
}

/** The latest of these routes' history starts (null: each holds the whole day). */
export function latestStart(histories: ReadonlyMap<string, RouteHistory>): number | null {
  let from: number | null = null;
  for (const h of histories.values()) if (h.from !== null && (from === null || h.from > from)) from = h.from;
  return from;
}

/**
 * Asks for a watched route's history back to `hours` before `now`: its baseline is taken again (silent,
 * after news, from the top of its list back to there: src/core/poller/plan-baselines.ts), and its figures
 * keep what they hold until it ends. Nothing to read (started false) when they already hold that far, or
 * a read going on already reaches there. `firstReadMs` is how far a first read reaches (routeHistoryHours).
 */
export function askRouteHistory(
  store: { watches: Pick<WatchStore, 'watcherInfos'>; relayerWatches: Pick<RelayerWatches, 'readRouteHistory'> },
  routeId: string,
  o: { hours: number; now: number; firstReadMs: number },
): RouteHistoryRead | null {
  const info = () => store.watches.watcherInfos().feeds.find((f) => f.key === routeKey(routeId));
  const w = info();
  if (!w) return null;
  const target = o.now - o.hours * HOUR_MS;
  // How far back it holds (or the read going on will hold) now.
  const reach = w.baselineDone ? (w.baselineFloor === null ? -Infinity : w.baselineFloor * 1000) : routeReadsBackTo(w.since, o.firstReadMs, w.historyFrom);
  const started = reach > target && store.relayerWatches.readRouteHistory(routeId, target);
  return { routeId, started, ...routeHistoryOf(started ? (info() as FeedInfo) : w, o.now) };
}
