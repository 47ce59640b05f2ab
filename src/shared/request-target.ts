/**
 * The request target as a URL on this server, or null when it cannot be one. `//`, `///`, `//a:b@`
 * and `/\` are paths here: `new URL('//a:b@', base)` would read them as another host (and throw).
 * Only origin-form targets are served; absolute-form (`http://x/`) and `*` are null.
 */
export function requestUrl(target: string | undefined): URL | null {
  const raw = target ?? '/';
  if (!raw.startsWith('/')) return null;
  try {
    return new URL(`http://127.0.0.1${raw}`);
  } catch {
    return null;
  }
}
