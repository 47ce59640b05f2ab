/**
 * The relayer's own counts beside the chains': per route, what it says it relayed and failed over the
 * window, and the deliveries the chains show for it there over the same window. Two disagreements are
 * worth a person's attention, each with its reason in words: it claims deliveries the chains do not
 * show (a watched route only: an unwatched one is not read, so the chains' side is unknown), and
 * failures with one reason climbing.
 */
import { routeLabel, type OwnChain } from '../../shared/chains';
import type { OwnWindow } from './own-history';
import { MINUTE_MS } from '../../shared/time';

export interface OwnRouteRow {
  sourceChain: string;
  destinationChain: string;
  routeName: string;
  /** A watched route: the chains' side is read. */
  watched: boolean;
  relayerDelivered: number;
  relayerFailed: number;
  failures: { reason: string; count: number }[];
  /** Deliveries the chains show for this relayer here over the same window (null: the route is not watched). */
  chainDelivered: number | null;
  latencyMs: number | null;
  /** The disagreement in words, when it holds. */
  disagreement: string | null;
}

/** A disagreement holding now: the alert's key, its subject and its words. */
export interface Holding {
  key: string;
  kind: 'relayer_claims_unseen' | 'relayer_failures';
  sourceChain: string;
  destinationChain: string;
  /** What it is about, for its title ("ours: C-Chain → Beam", "ours: 'failed to send warp message'"). */
  about: string;
  body: string;
}

export interface Comparison {
  /** The window's span in whole minutes (what the words say). */
  minutes: number;
  routes: OwnRouteRow[];
  holding: Holding[];
  /** The keys judged (each a route with both sides read, each reason reported): what may resolve. */
  judged: Set<string>;
}

export interface Thresholds {
  /** It claims this many more deliveries than the chains show (0: off). */
  claimExcess: number;
  /** This many failures with one reason in the window (0: off). */
  failures: number;
}

const KEY_KIND = { relayer_claims_unseen: 'relayer-claims', relayer_failures: 'relayer-failures' } as const;

/** The start every key of one relayer's episodes of a kind shares (network canonical). */
export const ownKeyPrefix = (kind: keyof typeof KEY_KIND, network: string, relayer: string) => `${KEY_KIND[kind]}:${network}:${relayer.toLowerCase()}:`;
export const claimsKey = (network: string, relayer: string, source: string, destination: string) =>
  `${ownKeyPrefix('relayer_claims_unseen', network, relayer)}${source}:${destination}`;
export const failuresKey = (network: string, relayer: string, reason: string) => `${ownKeyPrefix('relayer_failures', network, relayer)}${reason}`;
/** The network and relayer a claims or failures key names, and the failures' reason (which may hold colons): the inverse of the two above. */
export function ownKeyParts(key: string): { network: string; relayer: string; reason: string } {
  const [, network = '', relayer = '', ...rest] = key.split(':');
  return { network, relayer, reason: rest.join(':') };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
export const spanMinutes = (w: { from: number; to: number }) => Math.max(1, Math.round((w.to - w.from) / MINUTE_MS));

export function compareOwnView(
  w: OwnWindow,
  o: {
    network: string;
    relayer: string;
    name: string;
    watched: (source: string, destination: string) => boolean;
    chainDelivered: (source: string, destination: string) => number;
    thresholds: Thresholds;
    own: readonly OwnChain[];
  },
): Comparison {
  const mins = spanMinutes(w);
  const routes: OwnRouteRow[] = [];
  const holding: Holding[] = [];
  const judged = new Set<string>();
  const byReason = new Map<string, { count: number; routes: string[] }>();
  for (const r of w.routes.values()) {
    const routeName = routeLabel(r.sourceChain, r.destinationChain, o.own);
    const watched = o.watched(r.sourceChain, r.destinationChain);
    const chain = watched ? o.chainDelivered(r.sourceChain, r.destinationChain) : null;
    const failures = [...r.failed].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
    let disagreement: string | null = null;
    if (chain !== null && o.thresholds.claimExcess > 0) {
      const key = claimsKey(o.network, o.relayer, r.sourceChain, r.destinationChain);
      judged.add(key);
      if (r.delivered - chain >= o.thresholds.claimExcess) {
        disagreement =
          `the relayer says it delivered ${plural(r.delivered, 'message', 'messages')} ${routeName} in the last ${mins} min; ` +
          `the chains show ${chain} (alerts at ${o.thresholds.claimExcess} or more unseen)`;
        holding.push({
          key,
          kind: 'relayer_claims_unseen',
          sourceChain: r.sourceChain,
          destinationChain: r.destinationChain,
          about: `${o.name}: ${routeName}`,
          body: disagreement,
        });
      }
    }
    for (const f of failures) {
      if (!f.count) continue;
      const b = byReason.get(f.reason) ?? { count: 0, routes: [] };
      b.count += f.count;
      b.routes.push(`${routeName} ${f.count}`);
      byReason.set(f.reason, b);
    }
    routes.push({
      sourceChain: r.sourceChain,
      destinationChain: r.destinationChain,
      routeName,
      watched,
      relayerDelivered: r.delivered,
      relayerFailed: failures.reduce((s, f) => s + f.count, 0),
      failures,
      chainDelivered: chain,
      latencyMs: r.latencyMs,
      disagreement,
    });
  }
  if (o.thresholds.failures > 0)
    for (const r of w.routes.values())
      for (const reason of r.failed.keys()) {
        const key = failuresKey(o.network, o.relayer, reason);
        judged.add(key);
        const b = byReason.get(reason);
        if (!b || b.count < o.thresholds.failures || holding.some((h) => h.key === key)) continue;
        holding.push({
          key,
          kind: 'relayer_failures',
          sourceChain: '',
          destinationChain: '',
          about: `${o.name}: '${reason}'`,
          body: `${plural(b.count, 'relay', 'relays')} failed with reason '${reason}' in the last ${mins} min (${b.routes.join(', ')}; alerts at ${o.thresholds.failures}).`,
        });
      }
  routes.sort((a, b) => a.routeName.localeCompare(b.routeName));
  return { minutes: mins, routes, holding, judged };
}
