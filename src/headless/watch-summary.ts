/**
 * What a config watches, in words: the start line's counts ("1 address, 2 relayers, 1 route and 0
 * feeds") and the list `--check` prints, one line per watch, relayer, route and feed, each with the
 * network and thresholds the watcher will use. Kept apart from the command so `--check`'s other checks
 * (key files, limits) stay their own.
 */
import { ownChainsOf, routeLabel } from '../shared/chains';
import type { HeadlessConfig } from './config-schema';

/** `1 address`, `2 addresses`, `0 feeds`. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `a, b and c`. */
function andList(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) as string}`;
}

/** "1 address, 2 relayers, 1 route and 0 feeds". */
export function watchCounts(c: Pick<HeadlessConfig, 'watches' | 'relayers' | 'routes' | 'feeds'>): string {
  return andList([
    count(c.watches.length, 'address', 'addresses'),
    count(c.relayers.length, 'relayer'),
    count(c.routes.length, 'route'),
    count(c.feeds.length, 'feed'),
  ]);
}

const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;
const named = (label: string | undefined, what: string) => (label?.trim() ? `${label.trim()} (${what})` : what);

/** One line per watched address, relayer, route and feed, as the watcher will run them. */
export function describeWatches(c: HeadlessConfig): string[] {
  const net = c.network ?? 'mainnet';
  const silent = c.relayerSilentMinutes ?? 30;
  const pending = c.relayerPendingMinutes ?? 10;
  const backlog = c.routeBacklogMinutes ?? 30;
  const own = typeof c.dataSource === 'object' ? ownChainsOf(c.dataSource) : [];
  const lines: string[] = [];
  for (const w of c.watches) lines.push(`address  ${named(w.label, w.address)} on ${w.network ?? net}`);
  for (const r of c.relayers) {
    const alerts = r.alert === false ? 'no alerts' : `silent alert after ${r.silentMinutes ?? silent} min, pending after ${r.pendingMinutes ?? pending} min`;
    lines.push(`relayer  ${named(r.label, short(r.address))} on ${r.network ?? net}: ${alerts}`);
  }
  for (const r of c.routes) {
    const alerts = r.alert === false ? 'no alerts' : `backlog alert after ${r.backlogMinutes ?? backlog} min`;
    lines.push(`route    ${named(r.label, routeLabel(r.source, r.destination, own))} on ${r.network ?? net}: ${alerts}`);
  }
  for (const f of c.feeds) lines.push(`feed     "${f.name}" on ${f.network ?? net}`);
  return lines;
}
