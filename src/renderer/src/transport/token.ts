import { WEB_TOKEN_PARAM, WEB_TOKEN_STORAGE_KEY } from '../../../shared/web-protocol';

/**
 * The web host prints `/?token=...`; keep the token in sessionStorage (survives reloads of this tab only)
 * and remove it from the address bar so it does not end up in history or screenshots.
 */
export function takeLaunchToken(loc: Location = window.location, storage: Storage = window.sessionStorage): string | null {
  const url = new URL(loc.href);
  const fromUrl = url.searchParams.get(WEB_TOKEN_PARAM);
  if (fromUrl) {
    storage.setItem(WEB_TOKEN_STORAGE_KEY, fromUrl);
    url.searchParams.delete(WEB_TOKEN_PARAM);
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return storage.getItem(WEB_TOKEN_STORAGE_KEY);
}
