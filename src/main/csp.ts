/**
 * The Content-Security-Policy of the desktop window. The page also carries a meta CSP (it is served
 * by the web host too); this header applies on top of it, and both must allow a request. The
 * desktop page reaches the core only over IPC, so it needs no network at all.
 */
import type { Session } from 'electron';

export function desktopCsp(opts: { devOrigin?: string } = {}): string {
  // The dev server's hot reload needs its origin and websocket; the built page needs neither.
  const dev = opts.devOrigin ? ` ${opts.devOrigin} ${opts.devOrigin.replace(/^http/, 'ws')}` : '';
  return [
    "default-src 'none'",
    `script-src 'self'${dev ? ` ${opts.devOrigin}` : ''}`,
    // naive-ui and echarts inject style elements at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self'${dev}`,
    "object-src 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "manifest-src 'none'",
    "media-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Replaces any CSP header of every response of this session with ours. */
export function installCspHeader(session: Pick<Session, 'webRequest'>, csp: string): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') headers[name] = value;
    }
    headers['Content-Security-Policy'] = [csp];
    callback({ responseHeaders: headers });
  });
}
