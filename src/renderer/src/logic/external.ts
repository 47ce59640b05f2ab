import { isAllowedExternalUrl } from '../../../shared/chains';
import { toErrorInfo } from '../../../shared/errors';
import { monitor } from '../client';

/**
 * Opens an explorer link outside the app. Only allow-listed https explorers, checked here and again
 * by the core. The web shell has no shell opener: when the core refuses there, open a new tab without
 * giving it a handle back to this page.
 */
export async function openExternalLink(url: string, shell: 'electron' | 'web'): Promise<{ ok: true } | { ok: false; message: string }> {
  if (!isAllowedExternalUrl(url)) return { ok: false, message: `Refused to open ${url}: only https links to known explorers open outside the app.` };
  try {
    // eng-disable OPEN_EXTERNAL_JS_CHECK: an IPC call, and the url passed isAllowedExternalUrl above
    await monitor().openExternal({ url });
    return { ok: true };
  } catch (e) {
    if (shell === 'web') {
      window.open(url, '_blank', 'noopener,noreferrer');
      return { ok: true };
    }
    return { ok: false, message: toErrorInfo(e).message };
  }
}
