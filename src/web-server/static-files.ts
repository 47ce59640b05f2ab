/**
 * Serves the built renderer (out/renderer) read-only. A request path can only ever name a regular
 * file inside the root: decoded, normalised, checked against the root, and symlinks resolved.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

const contentTypeOf = (file: string): string => CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';

interface StaticFile {
  path: string;
  size: number;
  contentType: string;
  /** Vite's hashed assets never change under the same name. */
  immutable: boolean;
}

/**
 * Judged on the resolved real path, never on the URL: `/x.js.map/`, `%2f`, `/.` and friends all
 * normalise to the same file. Hidden source maps stay on disk (they would hand any local page the
 * app's full source), and only the kinds of file the page needs are served at all.
 */
const servable = (realPath: string): boolean => {
  const ext = extname(realPath).toLowerCase();
  return ext !== '.map' && Object.hasOwn(CONTENT_TYPES, ext);
};

/**
 * Maps a URL pathname to a file under `root`, or null (not found / refused). Never throws.
 * `root` must already be a real (symlink-free) absolute path.
 */
export async function resolveStaticFile(root: string, pathname: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  // Backslashes and NULs have no business in a URL path; `..` segments are refused outright
  // rather than normalised away, so a traversal attempt is a plain 404.
  if (decoded.includes('\0') || decoded.includes('\\') || !decoded.startsWith('/')) return null;
  if (decoded.split('/').some((seg) => seg === '..')) return null;
  const relative = decoded === '/' ? 'index.html' : decoded.slice(1);
  const candidate = resolve(join(root, relative));
  if (candidate !== root && !candidate.startsWith(root + sep)) return null;
  try {
    const real = await realpath(candidate);
    if (!real.startsWith(root + sep) || !servable(real)) return null;
    const st = await stat(real);
    if (!st.isFile()) return null;
    return {
      path: real,
      size: st.size,
      contentType: contentTypeOf(real),
      immutable: real.startsWith(join(root, 'assets') + sep),
    };
  } catch {
    return null;
  }
}

export const openStaticStream = (file: StaticFile) => createReadStream(file.path);
