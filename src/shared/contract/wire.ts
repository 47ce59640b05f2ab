/** What carries the contract: a transport's two operations and the reply of a call, the same over IPC and the web host. */
import type { ErrorInfo } from '../errors';
import type { MonitorEvent } from './events';
import type { MonitorMethod } from './methods';

/**
 * What a transport offers the renderer: Electron's preload exposes exactly this as `window.monitor`;
 * the web host's client implements it over fetch + WebSocket.
 */
export interface MonitorTransport {
  invoke(method: MonitorMethod, input: unknown): Promise<InvokeResponse>;
  subscribe(listener: (event: MonitorEvent) => void): () => void;
}

/** The wire shapes both transports use. */
export type InvokeResponse<T = unknown> = { ok: true; value: T } | { ok: false; error: ErrorInfo };
