/**
 * What a config watches, in words: the counts ("1 address, 2 relayers, 1 route and 0 feeds"), the
 * start line's names ("2 relayers (Swift, Blinker)", the first few of many) and the list `--check` prints, one line per watch, relayer, route and feed, each with the
 * network and thresholds the watcher will use. Kept apart from the command so `--check`'s other checks
 * (key files, limits) stay their own.
 */
import { ownChainsOf, routeLabel } from '../shared/chains';
import { shortHex } from '../shared/format';
import { visibleText } from '../shared/visible-text';
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

/** A name as a console line shows it: no character that acts instead of showing, at most NAME_CHARS long. */
const NAME_CHARS = 32;
function consoleName(name: string): string {
  const shown = visibleText(name.trim());
  return [...shown].length > NAME_CHARS ? `${[...shown].slice(0, NAME_CHARS - 1).join('')}…` : shown;
}

/** "2 relayers (Swift, Blinker)"; of many, the first `shown` and "and N more". */
function countNamed(names: string[], one: string, many: string, shown: number): string {
  const head = count(names.length, one, many);
  if (!names.length) return head;
  const listed = names.slice(0, shown).map(consoleName);
  const more = names.length - listed.length;
  return `${head} (${listed.join(', ')}${more > 0 ? ` and ${more} more` : ''})`;
}

/** The start line's "1 address (demo-busy), 2 relayers (Swift, Blinker), 1 route (C-Chain → Beam) and 0 feeds": each named as --check names it, the first `shown` of each kind. */
export function watchNames(c: Pick<HeadlessConfig, 'watches' | 'relayers' | 'routes' | 'feeds' | 'dataSource'>, shown = 3): string {
  const own = typeof c.dataSource === 'object' ? ownChainsOf(c.dataSource) : [];
  return andList([
    countNamed(
      c.watches.map((w) => w.label?.trim() || shortHex(w.address)),
      'address',
      'addresses',
      shown,
    ),
    countNamed(
      c.relayers.map((r) => r.label?.trim() || shortHex(r.address)),
      'relayer',
      'relayers',
      shown,
    ),
    countNamed(
      c.routes.map((r) => r.label?.trim() || routeLabel(r.source, r.destination, own)),
      'route',
      'routes',
      shown,
    ),
    countNamed(
      c.feeds.map((f) => f.name),
      'feed',
      'feeds',
      shown,
    ),
  ]);
}
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
    lines.push(`relayer  ${named(r.label, shortHex(r.address))} on ${r.network ?? net}: ${alerts}`);
  }
  for (const r of c.routes) {
    const alerts = r.alert === false ? 'no alerts' : `backlog alert after ${r.backlogMinutes ?? backlog} min`;
    lines.push(`route    ${named(r.label, routeLabel(r.source, r.destination, own))} on ${r.network ?? net}: ${alerts}`);
  }
  for (const f of c.feeds) lines.push(`feed     "${f.name}" on ${f.network ?? net}`);
  return lines;
}
