/**
 * Header names the API key may not travel in: the ones HTTP itself uses for framing, routing and
 * connection management (a key sent as `Host` or `Content-Length` misroutes or breaks the request,
 * and undici refuses some outright), plus the Fetch standard's forbidden request headers.
 */
const RESERVED = new Set([
  'host',
  'connection',
  'content-length',
  'content-type',
  'content-encoding',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
  'expect',
  'cookie',
  'cookie2',
  'set-cookie',
  'date',
  'dnt',
  'origin',
  'referer',
  'via',
  'accept-charset',
  'accept-encoding',
  'access-control-request-headers',
  'access-control-request-method',
  'http2-settings',
]);
const RESERVED_PREFIXES = ['proxy-', 'sec-'];

/** Why `name` cannot carry the key, or null when it can. */
export function reservedHeaderReason(name: string): string | null {
  const n = name.toLowerCase();
  if (RESERVED.has(n)) return `API key header cannot be "${name}": HTTP reserves that header for the request itself.`;
  const prefix = RESERVED_PREFIXES.find((p) => n.startsWith(p));
  if (prefix) return `API key header cannot start with "${prefix}": HTTP reserves those headers.`;
  return null;
}
