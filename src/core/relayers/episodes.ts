/**
 * The relayer conditions and the relayer alerts' episodes, as pure functions: a condition holds or not at a
 * moment; an episode opens the first time it holds (fire once) and closes when it no longer does
 * (resolve once). Who keeps the open episodes across restarts is the caller's business (an EpisodeDoor).
 */
import { MINUTE_MS } from '../../shared/time';
import type { EpisodeKind } from '../../shared/vocabulary';
import type { Announcement, EpisodeStart, OpenEpisode } from '../store/relayer-episodes';

/** Where an alert's episodes open and close (the alert timeline, parts/alert-timeline.ts: listed in Activity, logged, announced). */
export interface EpisodeDoor {
  open(kinds: readonly EpisodeKind[]): Map<string, OpenEpisode>;
  fire(e: EpisodeStart, at: number, words: Announcement): boolean;
  /** `words` null: closed quietly (no longer watched, or its alert off). */
  resolve(e: OpenEpisode, at: number, words: Announcement | null): boolean;
}

interface RelayerSilentInput {
  now: number;
  /** Destination time of its newest delivery (ms); null: none seen. */
  lastDeliveryAt: number | null;
  /** When watching began (ms): silence is not counted from before the relayer was watched. */
  watchedSince: number;
  /** Source time (ms) of the oldest message pending on a route the relayer delivers on; null: none. */
  oldestPendingOnItsRoutes: number | null;
  silentMinutes: number;
  pendingMinutes: number;
}

/** No delivery for `silentMinutes` while one of its routes holds a message pending longer than `pendingMinutes`. */
export function relayerSilent(i: RelayerSilentInput): boolean {
  if (i.oldestPendingOnItsRoutes === null) return false;
  const quietSince = Math.max(i.lastDeliveryAt ?? i.watchedSince, i.watchedSince);
  return i.now - quietSince >= i.silentMinutes * MINUTE_MS && i.now - i.oldestPendingOnItsRoutes >= i.pendingMinutes * MINUTE_MS;
}

/** The route's oldest pending message is older than `backlogMinutes`. */
export function routeBacklog(i: { now: number; oldestPendingSince: number | null; backlogMinutes: number }): boolean {
  return i.oldestPendingSince !== null && i.now - i.oldestPendingSince >= i.backlogMinutes * MINUTE_MS;
}

interface EpisodeStep {
  /** Keys whose condition holds now and had no open episode: fire. */
  fired: string[];
  /** Keys with an open episode whose condition no longer holds: resolve. */
  resolved: string[];
  /** The episodes open after this step. */
  open: Set<string>;
}

/**
 * One evaluation: `holding` are the keys whose condition holds now, `watched` every key still
 * evaluated. An open episode of a key no longer watched is dropped without a resolve (nobody asks any
 * more); one still watched resolves when its condition stops holding. A `held` key is not judged now
 * (what it is judged from is not read: sources/sight.ts): it neither fires nor resolves, and stays open if it was.
 */
export function stepEpisodes(
  open: ReadonlySet<string>,
  holding: ReadonlySet<string>,
  watched: ReadonlySet<string>,
  held: ReadonlySet<string> = new Set(),
): EpisodeStep {
  const fired = [...holding].filter((k) => watched.has(k) && !open.has(k) && !held.has(k));
  const resolved = [...open].filter((k) => watched.has(k) && !holding.has(k) && !held.has(k));
  const next = new Set([...open].filter((k) => watched.has(k) && (holding.has(k) || held.has(k))));
  for (const k of fired) next.add(k);
  return { fired, resolved, open: next };
}
