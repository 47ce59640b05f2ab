/**
 * The failed-execution alert (`route_failed_executions`) of each watched route, stepped as the other relayer
 * alerts' episodes are (episodes.ts): it fires when the route's failed executions of the last hour reach the
 * threshold (its episode starting at the failure that reached it, route-failures.ts), resolves below it, is
 * held while a chain of the route is not read (sources/sight.ts), and closes quietly when the route is no
 * longer watched or its alert is off.
 */
import { routeLabel, type OwnChain } from '../../shared/chains';
import type { WatchedRoute } from '../../shared/relayers';
import { EPISODE_WORDS } from '../../shared/vocabulary';
import type { Sight } from '../sources/sight';
import type { Announcement } from '../store/relayer-episodes';
import { stepEpisodes, type EpisodeDoor } from './episodes';
import { failedKey, holdingRoutes, type RouteFailureCount } from './route-failures';

interface FailedExecutionJudge {
  door: EpisodeDoor;
  sight: Sight;
  /** Failed executions per hour that fire the alert (0: off). */
  threshold: number;
  own: readonly OwnChain[];
}

/** Fires, resolves and closes the routes' episodes for this cycle's counts. */
export function decideFailedExecutionAlerts(j: FailedExecutionJudge, counts: readonly RouteFailureCount[], now: number): void {
  const holding = holdingRoutes(counts, j.threshold);
  const watched = new Set(counts.filter((c) => c.route.alert && j.threshold > 0).map((c) => failedKey(c.route.id)));
  // A route with a chain not read now is held: it neither fires nor resolves, nor closes.
  const held = new Set(counts.filter((c) => !j.sight.sees(c.route.sourceChain) || !j.sight.sees(c.route.destinationChain)).map((c) => failedKey(c.route.id)));
  const open = j.door.open(['route_failed_executions']);
  const step = stepEpisodes(new Set(open.keys()), new Set(holding.keys()), watched, held);
  for (const key of step.fired) {
    const h = holding.get(key)!;
    const r = h.count.route;
    const subject = r.label || routeLabel(r.sourceChain, r.destinationChain, j.own);
    const episode = {
      key,
      kind: 'route_failed_executions' as const,
      network: r.network,
      subject,
      sourceChain: r.sourceChain,
      destinationChain: r.destinationChain,
      startedAt: h.since,
    };
    j.door.fire(episode, now, firedText(subject, r, h.count.count, j.threshold, j.own));
  }
  const resolved = new Set(step.resolved);
  for (const [key, e] of open) {
    if (resolved.has(key)) j.door.resolve(e, now, resolvedText(e.subject, j.threshold));
    else if (!step.open.has(key) && !held.has(key)) j.door.resolve(e, now, null);
  }
}

function firedText(subject: string, r: WatchedRoute, count: number, threshold: number, own: readonly OwnChain[]): Announcement {
  const route = routeLabel(r.sourceChain, r.destinationChain, own);
  return {
    title: EPISODE_WORDS.route_failed_executions.fire(subject),
    body: `${count} message(s) delivered on ${route} in the last hour failed to execute (threshold ${threshold}): someone must call retryMessageExecution (Relayers view, Failed executions).`,
  };
}

const resolvedText = (subject: string, threshold: number): Announcement => ({
  title: EPISODE_WORDS.route_failed_executions.resolve(subject),
  body: `Fewer than ${threshold} messages delivered on ${subject} in the last hour failed to execute.`,
});
