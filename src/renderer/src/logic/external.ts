import { isAllowedExternalUrl } from '../../../shared/chains';
import type { ShellName } from '../../../shared/contract';
import { toErrorInfo } from '../../../shared/errors';
import { monitor } from '../client';

/**
 * Opens an explorer link outside the app. Only allow-listed https explorers, checked here and again
 * by the core. Only the desktop app has a shell opener: in a browser (the web host, or the headless
 * watcher's `--web`) the core refuses, so open a new tab without giving it a handle back to this page.
 */
export async function openExternalLink(url: string, shell: ShellName): Promise<{ ok: true } | { ok: false; message: string }> {
  if (!isAllowedExternalUrl(url)) return { ok: false, message: `Refused to open ${url}: only https links to known explorers open outside the app.` };
  try {
    // eng-disable OPEN_EXTERNAL_JS_CHECK: an IPC call, and the url passed isAllowedExternalUrl above
    await monitor().openExternal({ url });
    return { ok: true };
  } catch (e) {
    if (shell !== 'electron') {
      window.open(url, '_blank', 'noopener,noreferrer');
      return { ok: true };
    }
    return { ok: false, message: toErrorInfo(e).message };
  }
}
