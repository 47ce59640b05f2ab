import type { MonitorTransport } from '../../../shared/api';
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
  /** Web shell opened without a launch token. */
  missingToken: boolean;
}

/** Electron bridge when the preload exposed one, else the web host transport. */
export function pickTransport(): PickedTransport {
  if (window.monitor) return { transport: window.monitor, web: null, missingToken: false };
  const token = takeLaunchToken();
  const web = createWebTransport({ origin: window.location.origin, token: token ?? '' });
  return { transport: web, web, missingToken: !token };
}
