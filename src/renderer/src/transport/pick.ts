import type { MonitorTransport } from '../../../shared/contract';
import { takeLaunchToken } from './token';
import { createWebTransport, type WebTransport } from './web-transport';

declare global {
  interface Window {
    /** Exposed by the Electron preload (contextBridge). */
    monitor?: MonitorTransport;
  }
}

export interface PickedTransport {
  transport: MonitorTransport;
  /** Present in the web shell: its socket can drop and reconnect. */
  web: WebTransport | null;
}

/**
 * Electron bridge when the preload exposed one, else the web host transport; null when the web page
 * was opened without its launch token (nothing can be asked then: no socket, no calls).
 */
export function pickTransport(): PickedTransport | null {
  if (window.monitor) return { transport: window.monitor, web: null };
  const token = takeLaunchToken();
  if (!token) return null;
  const web = createWebTransport({ origin: window.location.origin, token });
  return { transport: web, web };
}
