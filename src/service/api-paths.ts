/**
 * The public paths, in one place. The Data API serves the same operations under the deprecated
 * `/v1/teleporter` prefix and the newer `/v1/icm` prefix; both use the same handlers here.
 */
export const API_PREFIXES = ['/v1/teleporter', '/v1/icm'] as const;
export const LOCAL_PREFIX = '/_local';

export type Operation = 'list' | 'address';
export type RouteMatch = { operation: Operation; address?: string } | null;

/** Matches a path (no query string) to an operation; an optional trailing slash is accepted. */
export function matchApiPath(pathname: string): RouteMatch {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  for (const prefix of API_PREFIXES) {
    if (!path.startsWith(prefix + '/')) continue;
    const rest = path.slice(prefix.length);
    if (rest === '/messages') return { operation: 'list' };
    const m = /^\/addresses\/([^/]+)\/messages$/.exec(rest);
    if (m) return { operation: 'address', address: decodeSegment(m[1]!) };
  }
  return null;
}

/** A malformed percent-encoding is left as is; the address validator then explains what is wrong. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
