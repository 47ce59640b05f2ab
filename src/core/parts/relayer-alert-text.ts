/** What the relayer-silent and route-backlog alerts say when they fire and when they clear: the facts, with the thresholds. */
import { routeLabel, type OwnChain } from '../../shared/chains';
import { TRACKING_LIMIT_HOURS } from '../../shared/contract';
import { shortHex } from '../../shared/format';
import type { WatchedRelayer, WatchedRoute } from '../../shared/relayers';
import { EPISODE_WORDS, silenceClearedTitle } from '../../shared/vocabulary';
import type { Silence } from '../relayers/conditions';
import type { Announcement, EpisodeStart, OpenEpisode } from '../store/relayer-episodes';
import { MINUTE_MS } from '../../shared/time';

const minutesAgo = (now: number, t: number) => `${Math.max(0, Math.round((now - t) / MINUTE_MS))} min`;

/** How a relayer's silence ended: it delivered (when), or nothing on its routes waits past its threshold any more. */
export type SilenceEnd = { delivered: true; at: number } | { delivered: false; pendingMinutes: number };

/** What it has not done for how long, and which route's message waits how long. */
export function silentText(r: WatchedRelayer, s: Silence, now: number, own: readonly OwnChain[]): Announcement {
  const name = r.label ? `${r.label} (${shortHex(r.address)})` : r.address;
  return {
    title: EPISODE_WORDS.relayer_silent.fire(r.label || shortHex(r.address)),
    body:
      `${name} has not delivered for ${minutesAgo(now, s.quietSince)} while ${routeLabel(s.sourceChain, s.destinationChain, own)} ` +
      `holds a message pending ${minutesAgo(now, s.pendingSince)} (alerts after ${r.silentMinutes} min silent while a message waits ${r.pendingMinutes} min).`,
  };
}

export function backlogText(e: EpisodeStart, r: WatchedRoute, now: number, own: readonly OwnChain[]): Announcement {
  return {
    title: EPISODE_WORDS.route_backlog.fire(e.subject),
    body:
      `The oldest pending message on ${routeLabel(r.sourceChain, r.destinationChain, own)} is older than ${r.backlogMinutes} min (for ${minutesAgo(now, e.startedAt)} past that). ` +
      `This clears when it is delivered, or when the watch stops following it after ${TRACKING_LIMIT_HOURS.pending_too_long / 24} days pending; ` +
      `if that message is never meant to arrive (the embedded demo keeps some pending on purpose), raise the route's threshold or unwatch it.`,
  };
}

/**
 * A cleared episode says which way it cleared. A relayer's silence ends either by a delivery or because no
 * message on its routes waits long enough any more; only the first is "delivering again" (the words of
 * an earlier version, "delivers again, or nothing waits on its routes any more", left the reader to guess).
 */
export function resolveText(e: OpenEpisode, now: number, end: SilenceEnd | null): Announcement {
  const lasted = minutesAgo(now, e.startedAt);
  if (e.kind !== 'relayer_silent')
    return {
      title: EPISODE_WORDS.route_backlog.resolve(e.subject),
      body: `No message on ${e.subject} is pending past its threshold any more (the backlog lasted about ${lasted}).`,
    };
  if (!end || end.delivered)
    return {
      title: EPISODE_WORDS.relayer_silent.resolve(e.subject),
      body: `${e.subject} delivered a message ${end ? `${minutesAgo(now, end.at)} ago` : 'again'} (the silence lasted about ${lasted}).`,
    };
  return {
    title: silenceClearedTitle(e.subject),
    body:
      `${e.subject} has still not delivered, but no message on its routes has been waiting ${end.pendingMinutes} min or more any more, ` +
      `so nothing is held up by it now (the alert lasted about ${lasted}).`,
  };
}
