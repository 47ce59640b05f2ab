/**
 * The one IPC entry point. It accepts calls only from our page in our window (the main frame, at
 * our URL), then hands the method name and input to the core facade, which validates both. The
 * answer is always an InvokeResponse value the renderer can show; nothing is thrown across.
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../shared/ipc-channels';
import { type InvokeResponse, type MonitorEvent } from '../shared/contract';
import { toErrorInfo } from '../shared/errors';
import type { MonitorCore } from '../core';

interface SenderPolicy {
  /** The webContents of our window (or null while there is none). */
  appContents(): Pick<WebContents, 'id'> | null;
  isAppUrl(url: string): boolean;
}

type SenderEvent = Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>;

/** Why a sender is refused, or null when it is our page's main frame. */
function senderRefusal(event: SenderEvent, policy: SenderPolicy): string | null {
  const ours = policy.appContents();
  if (!ours || event.sender.id !== ours.id) return 'the call did not come from the Teleporter Watch window';
  const frame = event.senderFrame;
  if (!frame) return 'the calling frame is gone';
  if (frame.parent !== null) return 'the call came from an embedded frame';
  if (!policy.isAppUrl(frame.url)) return `the calling page is not Teleporter Watch (${frame.origin || 'unknown origin'})`;
  return null;
}

type InvokeService = Pick<MonitorCore, 'invoke'>;

/** Checks the sender, then forwards to the facade. */
async function handleInvoke(event: SenderEvent, method: unknown, input: unknown, core: InvokeService, policy: SenderPolicy): Promise<InvokeResponse> {
  const refusal = senderRefusal(event, policy);
  if (refusal) return { ok: false, error: { kind: 'unauthorized', message: `Refused: ${refusal}.` } };
  if (typeof method !== 'string') return { ok: false, error: { kind: 'invalid_input', message: 'The method name must be a string.' } };
  try {
    return await core.invoke(method, input);
  } catch (e) {
    // The facade promises not to throw; if it ever does, the renderer still gets a value.
    return { ok: false, error: toErrorInfo(e) };
  }
}

export function registerInvokeHandler(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, core: InvokeService, policy: SenderPolicy): () => void {
  ipcMain.handle(IPC_INVOKE_CHANNEL, (event, method: unknown, input: unknown) => handleInvoke(event, method, input, core, policy));
  return () => ipcMain.removeHandler(IPC_INVOKE_CHANNEL);
}

type EventTarget = Pick<WebContents, 'send' | 'isDestroyed'>;

/** Pushes a core event to our page (only ours: the target is our window's webContents). */
export function sendEvent(target: EventTarget | null, event: MonitorEvent): boolean {
  if (!target || target.isDestroyed()) return false;
  target.send(IPC_EVENT_CHANNEL, event);
  return true;
}
