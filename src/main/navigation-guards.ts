/**
 * The window shows our page and nothing else: navigations and redirects away from it are
 * cancelled, new windows are never created, webviews are refused. A link to an allow-listed https
 * explorer (src/shared/chains.ts) opens in the user's browser instead.
 */
import type { WebContents } from 'electron';
import { isAllowedExternalUrl } from '../shared/chains';

export type GuardedContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

interface NavigationPolicy {
  isAppUrl(url: string): boolean;
  /** Opens an allow-listed link in the user's browser (external-links.ts). */
  openLink(url: string): void;
  onBlocked?(what: 'navigate' | 'redirect' | 'window-open' | 'webview', url: string): void;
}

/** Opens the URL outside the app when it is allow-listed; says whether it did. */
function handOff(url: string, policy: NavigationPolicy): boolean {
  if (!isAllowedExternalUrl(url)) return false;
  policy.openLink(url);
  return true;
}

export function guardNavigation(contents: GuardedContents, policy: NavigationPolicy): void {
  contents.on('will-navigate', (event, url) => {
    if (policy.isAppUrl(url)) return;
    event.preventDefault();
    if (!handOff(url, policy)) policy.onBlocked?.('navigate', url);
  });
  contents.on('will-redirect', (event, url) => {
    if (policy.isAppUrl(url)) return;
    event.preventDefault();
    policy.onBlocked?.('redirect', url);
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (!handOff(url, policy)) policy.onBlocked?.('window-open', url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event, _webPreferences, params) => {
    event.preventDefault();
    policy.onBlocked?.('webview', params.src ?? '');
  });
}
