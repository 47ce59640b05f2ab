/**
 * The one door from the app to the user's browser. Only https links to the allow-listed explorers
 * of src/shared/chains.ts pass; everything else is refused with a reason.
 */
import type { Shell } from 'electron';
import { isAllowedExternalUrl } from '../shared/chains';

type LinkOpener = (url: string) => Promise<void>;

export function createLinkOpener(shell: Pick<Shell, 'openExternal'>): LinkOpener {
  return async (url) => {
    if (!isAllowedExternalUrl(url)) {
      throw new Error(`Refused to open ${url.slice(0, 200)}: only https links to known block explorers open outside the app.`);
    }
    await shell.openExternal(url); /* eng-disable OPEN_EXTERNAL_JS_CHECK: the allow-list check above admits only https explorer URLs */
  };
}
