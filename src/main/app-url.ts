/**
 * Where the renderer page lives, and whether a URL is that page. Only this page may talk to the
 * core over IPC and only it may be shown in the window; everything else is foreign.
 */
import { pathToFileURL } from 'node:url';

export type RendererLocation =
  /** The built page, out/renderer/index.html, loaded from disk. */
  | { kind: 'file'; path: string; url: string }
  /** The electron-vite dev server (`npm run dev`), on this machine only. */
  | { kind: 'dev'; url: string; origin: string };

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The dev server URL is honoured only for an unpackaged app and only on loopback http(s): a stray
 * ELECTRON_RENDERER_URL must never point the window at a remote page.
 */
export function rendererLocation(opts: { isPackaged: boolean; devUrl: string | undefined; indexHtml: string }): RendererLocation {
  if (!opts.isPackaged && opts.devUrl) {
    try {
      const u = new URL(opts.devUrl);
      if ((u.protocol === 'http:' || u.protocol === 'https:') && LOOPBACK_HOSTS.has(u.hostname)) {
        return { kind: 'dev', url: u.href, origin: u.origin };
      }
    } catch {
      // fall through to the built page
    }
  }
  return { kind: 'file', path: opts.indexHtml, url: pathToFileURL(opts.indexHtml).href };
}

/** True for our page (any query or hash), false for every other document, scheme or file. */
export function isAppUrl(url: string, loc: RendererLocation): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (loc.kind === 'dev') return u.origin === loc.origin;
  const page = new URL(loc.url);
  return u.protocol === 'file:' && u.host === page.host && u.pathname === page.pathname;
}
