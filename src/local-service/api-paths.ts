/**
 * The public paths, in one place. The Data API serves the same operations under the deprecated
 * `/v1/teleporter` prefix and the newer `/v1/icm` prefix; the family decides the record shape.
 */
export const API_FAMILIES = { teleporter: '/v1/teleporter', icm: '/v1/icm' } as const;
export type PathFamily = keyof typeof API_FAMILIES;
export const API_PREFIXES = Object.values(API_FAMILIES);
export const LOCAL_PREFIX = '/_local';

export type Operation = 'list' | 'address' | 'message';
export type ListOperation = Exclude<Operation, 'message'>;
type RouteMatch = { operation: Operation; family: PathFamily; address?: string; messageId?: string } | null;

/** Matches a path (no query string) to an operation; an optional trailing slash is accepted. */
export function matchApiPath(pathname: string): RouteMatch {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  for (const [family, prefix] of Object.entries(API_FAMILIES) as [PathFamily, string][]) {
    if (!path.startsWith(prefix + '/')) continue;
    const rest = path.slice(prefix.length);
    if (rest === '/messages') return { operation: 'list', family };
    const byAddress = /^\/addresses\/([^/]+)\/messages$/.exec(rest);
    if (byAddress) return { operation: 'address', family, address: decodeSegment(byAddress[1]!) };
    const byId = /^\/messages\/([^/]+)$/.exec(rest);
    if (byId) return { operation: 'message', family, messageId: decodeSegment(byId[1]!) };
  }
  return null;
}

/** A malformed percent-encoding is left as is; the validator then explains what is wrong. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
