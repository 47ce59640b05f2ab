import { ownChainsOf, routeLabel, type OwnChain } from '../../shared/chains';
import type { RelayerRow, WatchedRelayer, WatchedRoute } from '../../shared/relayers';
import { canonicalNetwork } from '../../shared/validators';
import type { RelayerMetrics, RelayerSnapshot } from '../metrics/relayer-metrics';
import { evaluateConditions, silentKey, backlogKey, type Conditions } from '../relayers/conditions';
import { stepEpisodes } from '../relayers/episodes';
import { RelayerFigures } from '../relayers/relayer-figures';
import type { DeliveryTap, FigureScope } from '../relayers/figure-accumulator';
import { ALWAYS_SEEING, type Sight } from '../sources/sight';
import type { EpisodeStart, OpenEpisode } from '../store/relayer-episodes';
import type { EpisodeNeeds } from './episode-needs';
import type { Part } from './part';
import { backlogText, resolveText, silentText, type SilenceEnd } from './relayer-alert-text';
import { MINUTE_MS } from '../../shared/time';

interface RelayerAlertsPart extends Part {
  /** After each poll cycle: runs both rules once, fires new episodes, resolves cleared ones, through the outbox. */
  afterCycle(): void;
}

/**
 * The relayer-silent and route-backlog alerts. Open episodes live in the core's database, so a restart
 * continues them (no second fire), and an episode's identity is its key plus the moment its condition
 * began to hold, read from the records: two replicas reading the same world announce the same episode.
 */
export function relayerAlertsPart(
  d: EpisodeNeeds & {
    /** Each cycle's deliveries (counted as they are read) and figures; at start a baseline: what the cache held before this run. */
    metrics?: Pick<RelayerMetrics, 'counting' | 'observe'>;
    /** Also sees each cycle's deliveries (the relayers' economics, parts/relayer-economics.ts). */
    tap?: (now: number) => DeliveryTap;
  },
): RelayerAlertsPart {
  const sight = d.sight ?? ALWAYS_SEEING;
  const figures = new RelayerFigures(d.store);
  const episodes = d.timeline;

  /** One streaming pass over the cache: the figures, the conditions, and the metrics' counts on the way. */
  function snapshot(baseline: boolean): RelayerSnapshot {
    const scope = figures.scope(d.clock.now());
    const taps = [d.metrics?.counting(scope, baseline), baseline ? undefined : d.tap?.(scope.now)].filter((t): t is DeliveryTap => t !== undefined);
    const f = figures.figures(scope, taps.length ? (a) => taps.forEach((t) => t(a)) : undefined);
    return { scope, overview: f.overview, conditions: evaluateConditions(scope, f) };
  }

  function evaluate(): void {
    const s = snapshot(false);
    const { scope, conditions } = s;
    // Not seeing is not news about relayers: while the source is not read, nothing fires or resolves,
    // and the metrics keep the conditions as last judged.
    if (!sight.seeing()) return;
    const now = scope.now;
    const own = ownChainsOf(d.settings().dataSource);
    // Only this part's kinds: the fuel alert's episodes are the economics part's.
    const open = episodes.open(['relayer_silent', 'route_backlog']);
    const held = heldKeys(scope, sight);
    d.metrics?.observe(held.size ? { ...s, conditions: asJudged(conditions, held, open) } : s);
    const step = stepEpisodes(new Set(open.keys()), conditions.holding, conditions.watched, held);
    const relayers = new Map(scope.relayers.map((r) => [silentKey(r.network, r.address), r]));
    const routes = new Map(scope.routes.map((r) => [backlogKey(r), r]));
    for (const key of step.fired) {
      const startedAt = conditions.since.get(key) ?? now;
      const relayer = relayers.get(key);
      const route = routes.get(key);
      const silence = conditions.silence.get(key);
      if (relayer && silence) episodes.fire(silentEpisode(key, relayer, startedAt), now, silentText(relayer, silence, now, own));
      else if (route) {
        const e = backlogEpisode(key, route, startedAt, own);
        episodes.fire(e, now, backlogText(e, route, now, own));
      }
    }
    for (const key of step.resolved) {
      const e = open.get(key) as OpenEpisode;
      episodes.resolve(e, now, resolveText(e, now, silenceEnd(relayers.get(key), s.overview.relayers, now)));
    }
    // No longer watched (or its alert turned off): closed without an announcement.
    for (const [key, e] of open) if (!step.open.has(key) && !step.resolved.includes(key)) episodes.resolve(e, now, null);
  }

  return {
    name: 'relayer-alerts',
    start() {
      if (!d.metrics) return;
      try {
        // The counters' baseline only: the gauges wait for a judged cycle (the source may not be read yet).
        snapshot(true);
      } catch (e) {
        d.logger.error('relayer figures failed', { error: e });
      }
    },
    afterCycle() {
      try {
        evaluate();
      } catch (e) {
        // An alert rule's fault never stops polling; the next cycle tries again.
        d.logger.error('relayer alerts failed', { error: e });
      }
    },
  };
}

/**
 * Keys judged from a chain not read now (your own nodes: one node down): a route's backlog on it, and
 * every relayer's silence while any watched route has such a chain (its deliveries there are not seen).
 */
function heldKeys(scope: FigureScope, sight: Sight): Set<string> {
  const blind = scope.routes.filter((r) => !sight.sees(r.sourceChain) || !sight.sees(r.destinationChain));
  if (!blind.length) return new Set();
  return new Set([...blind.map((r) => backlogKey(r)), ...scope.relayers.map((r) => silentKey(r.network, r.address))]);
}

/** The conditions with each held key as its open episode says (firing or not): what was last judged. */
function asJudged(c: Conditions, held: ReadonlySet<string>, open: ReadonlyMap<string, OpenEpisode>): Conditions {
  const holding = new Set([...c.holding].filter((k) => !held.has(k)));
  for (const k of held) if (open.has(k)) holding.add(k);
  return { ...c, holding };
}

/**
 * How a relayer's silence ended (null: not a relayer's episode): it delivered within its silent threshold
 * (the rule's first half no longer holds), or no message on its routes waits long enough any more.
 */
function silenceEnd(r: WatchedRelayer | undefined, rows: readonly RelayerRow[], now: number): SilenceEnd | null {
  if (!r) return null;
  const row = rows.find((x) => x.address.toLowerCase() === r.address.toLowerCase() && canonicalNetwork(x.network) === canonicalNetwork(r.network));
  const last = row?.lastDeliveryAt ?? null;
  return last !== null && now - last < r.silentMinutes * MINUTE_MS ? { delivered: true, at: last } : { delivered: false, pendingMinutes: r.pendingMinutes };
}

function silentEpisode(key: string, r: WatchedRelayer, startedAt: number): EpisodeStart {
  const subject = r.label || r.address;
  return { key, kind: 'relayer_silent', network: r.network, subject, sourceChain: '', destinationChain: '', startedAt, relayer: r.address };
}

function backlogEpisode(key: string, r: WatchedRoute, startedAt: number, own: readonly OwnChain[]): EpisodeStart {
  const subject = r.label || routeLabel(r.sourceChain, r.destinationChain, own);
  return { key, kind: 'route_backlog', network: r.network, subject, sourceChain: r.sourceChain, destinationChain: r.destinationChain, startedAt };
}
