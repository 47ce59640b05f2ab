import type { FeedFilter, NotifyPrefs } from '../../shared/contract';
import type { Network } from '../../shared/validators';

/** What the engine and poller need to know about one watcher (an address or `feed:<id>`). */
export interface WatcherInfo {
  key: string;
  network: Network;
  notify: NotifyPrefs;
  baselineDone: boolean;
  /** Source timestamp (s) below which a newly found message is history. */
  baselineFloor: number | null;
  /** When it was watched (ms): a message sent since is news for it, whoever's read finds it first. */
  since: number;
}

/** A saved feed (or a watched route, read as one) as a watcher: its filter beside the watcher's state. */
export interface FeedInfo extends WatcherInfo {
  id: string;
  filter: FeedFilter;
  /** A watched route whose history was asked for after it was watched: its baseline reads back to here (ms). */
  historyFrom?: number;
}

/**
 * How far back (ms) a watched route's read of its history goes: `firstReadMs` before it was watched
 * (routeHistoryHours), or further, to a later ask's `historyFrom` (readRouteHistory).
 */
export const routeReadsBackTo = (sinceMs: number, firstReadMs: number, historyFrom: number | undefined): number =>
  Math.min(sinceMs - firstReadMs, historyFrom ?? Infinity);
