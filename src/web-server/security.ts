/**
 * The web host's guards: a per-launch token, constant-time comparison, and the Host / Origin checks
 * that stop DNS rebinding (a hostile name resolving to 127.0.0.1) and cross-site requests.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits, URL-safe, so it can ride in `?token=`. */
export const newLaunchToken = (): string => randomBytes(32).toString('base64url');

/** Compares digests so neither the length nor the content of the token leaks through timing. */
export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}

/** Only the loopback names the host itself printed; anything else is a rebinding attempt. */
export function hostAllowed(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const h = host.toLowerCase();
  return h === `127.0.0.1:${port}` || h === `localhost:${port}`;
}

/** Absent Origin (same-origin GET, curl) is fine; a present one must be this very origin. */
export function originAllowed(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  if (!host) return false;
  return origin.toLowerCase() === `http://${host.toLowerCase()}`;
}

/** The policy the page declares in its meta tag, so header and meta never disagree. */
const DEFAULT_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; " +
  "form-action 'none'; frame-ancestors 'none'";

/** Reads the CSP from index.html's meta tag; adds frame-ancestors 'none' (meta tags cannot set it). */
export function cspFromIndexHtml(html: string | null): string {
  const tag = html ? /<meta\b[^>]*http-equiv=["']Content-Security-Policy["'][^>]*>/i.exec(html)?.[0] : undefined;
  const content = tag ? /\bcontent=(["'])(.*?)\1/is.exec(tag)?.[2] : undefined;
  const csp = (content ?? DEFAULT_CSP).trim().replace(/;\s*$/, '');
  return /frame-ancestors/.test(csp) ? csp : `${csp}; frame-ancestors 'none'`;
}

export function securityHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}

/**
 * The page may connect to this host only: its own origin under both names it answers to, HTTP and
 * WebSocket, on its own port (never another local port: the Data API stand-in, a wallet, a dev server).
 */
export function pinConnectSrc(csp: string, port: number): string {
  const own = ['127.0.0.1', 'localhost'].flatMap((h) => [`http://${h}:${port}`, `ws://${h}:${port}`]).join(' ');
  const directive = `connect-src 'self' ${own}`;
  const parts = csp
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  const i = parts.findIndex((p) => /^connect-src(\s|$)/i.test(p));
  if (i >= 0) parts[i] = directive;
  else parts.push(directive);
  return parts.join('; ');
}
