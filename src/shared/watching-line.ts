import type { PollStatus } from './contract';

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The status bar's "watching …" named by what it counts. A bare "watching 2" read as two addresses while
 * the Watchlist listed none: the two were watched routes (Relayers). Kinds at zero are left out. The
 * status bar and the tray menu say it alike.
 */
export function watchingLine(p: Pick<PollStatus, 'watching' | 'watchers'>): { text: string; title: string } {
  const title = 'Addresses and saved feeds are listed in the Watchlist, routes in Relayers.';
  const w = p.watchers;
  if (!w) return { text: `watching ${p.watching.toLocaleString('en-US')} (addresses, feeds and routes)`, title };
  const parts = [count(w.addresses, 'address', 'addresses'), count(w.feeds, 'feed', 'feeds'), count(w.routes, 'route', 'routes')].filter(
    (s) => !s.startsWith('0 '),
  );
  return { text: parts.length ? `watching ${parts.join(', ')}` : 'watching nothing yet', title };
}
