import type { InvokeResponse, MonitorEvent, MonitorMethod, MonitorTransport } from '../../../shared/api';
import { isErrorInfo, type ErrorInfo } from '../../../shared/errors';
import { WEB_EVENTS_PATH, WEB_INVOKE_PREFIX, WEB_TOKEN_PARAM } from '../../../shared/web-protocol';

export type ConnectionState = 'connecting' | 'open' | 'closed';

export interface ConnectionInfo {
  state: ConnectionState;
  /** Epoch ms of the next reconnect attempt while closed. */
  retryAt: number | null;
  attempts: number;
}

/** The minimal WebSocket surface we use, so tests can pass another implementation. */
export interface SocketLike {
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  close(): void;
}

export interface WebTransportOptions {
  /** Page origin, e.g. http://127.0.0.1:5173 */
  origin: string;
  token: string;
  fetch?: typeof fetch;
  createSocket?: (url: string) => SocketLike;
  /** Backoff for reconnects: 0.5 s doubling up to 15 s. */
  backoffMs?: (attempt: number) => number;
  setTimer?: (fn: () => void, ms: number) => () => void;
  now?: () => number;
}

export interface WebTransport extends MonitorTransport {
  connection(): ConnectionInfo;
  onConnection(listener: (info: ConnectionInfo) => void): () => void;
  close(): void;
}

export const defaultBackoff = (attempt: number): number => Math.min(15_000, 500 * 2 ** Math.max(0, attempt - 1));

const refusal = (status: number): ErrorInfo => {
  if (status === 401) return { kind: 'unauthorized', status, message: 'The web host refused the launch token. Open the URL the host printed (with ?token=…) again.' };
  if (status === 403) return { kind: 'unauthorized', status, message: 'The web host refused this page (Host or Origin). Open it at the 127.0.0.1 URL the host printed.' };
  if (status === 404) return { kind: 'not_found', status, message: 'The web host does not know this operation; the page and the host may be different versions. Reload the page.' };
  if (status === 413) return { kind: 'bad_request', status, message: 'The request was too large for the web host.' };
  return { kind: 'server', status, message: `The web host answered HTTP ${status}. Check the terminal that runs it.` };
};

/** MonitorTransport over the web host's protocol (src/shared/web-protocol.ts). */
export function createWebTransport(opts: WebTransportOptions): WebTransport {
  const doFetch = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const createSocket = opts.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
  const backoff = opts.backoffMs ?? defaultBackoff;
  const setTimer = opts.setTimer ?? ((fn: () => void, ms: number) => {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  });
  const now = opts.now ?? Date.now;

  const eventListeners = new Set<(e: MonitorEvent) => void>();
  const connListeners = new Set<(c: ConnectionInfo) => void>();
  let info: ConnectionInfo = { state: 'closed', retryAt: null, attempts: 0 };
  let socket: SocketLike | null = null;
  let cancelRetry: (() => void) | null = null;
  let closed = false;

  const setInfo = (next: ConnectionInfo) => {
    info = next;
    for (const l of connListeners) l(info);
  };

  const wsUrl = (() => {
    const u = new URL(WEB_EVENTS_PATH, opts.origin);
    u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
    u.searchParams.set(WEB_TOKEN_PARAM, opts.token);
    return u.toString();
  })();

  function connect() {
    if (closed) return;
    cancelRetry = null;
    setInfo({ state: 'connecting', retryAt: null, attempts: info.attempts });
    let s: SocketLike;
    try {
      s = createSocket(wsUrl);
    } catch {
      scheduleReconnect();
      return;
    }
    socket = s;
    s.onopen = () => setInfo({ state: 'open', retryAt: null, attempts: 0 });
    s.onmessage = (ev) => {
      if (typeof ev.data !== 'string') return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(ev.data);
      } catch {
        return; // A frame we cannot read is dropped; the next poll-status event resynchronises.
      }
      if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { type?: unknown }).type !== 'string') return;
      for (const l of eventListeners) l(parsed as MonitorEvent);
    };
    s.onerror = () => undefined; // onclose follows and schedules the reconnect.
    s.onclose = () => {
      if (socket === s) socket = null;
      scheduleReconnect();
    };
  }

  function scheduleReconnect() {
    if (closed || cancelRetry) return;
    const attempts = info.attempts + 1;
    const delay = backoff(attempts);
    setInfo({ state: 'closed', retryAt: now() + delay, attempts });
    cancelRetry = setTimer(connect, delay);
  }

  async function invoke(method: MonitorMethod, input: unknown): Promise<InvokeResponse> {
    let res: Response;
    try {
      res = await doFetch(new URL(WEB_INVOKE_PREFIX + method, opts.origin).toString(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.token}` },
        body: JSON.stringify({ input: input ?? null }),
      });
    } catch {
      return { ok: false, error: { kind: 'network', message: 'Cannot reach the web host. Is `npm run start:web` still running?' } };
    }
    if (res.status !== 200) return { ok: false, error: refusal(res.status) };
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      return { ok: false, error: { kind: 'invalid_response', message: 'The web host sent a reply that is not JSON.' } };
    }
    if (typeof body === 'object' && body !== null && 'ok' in body) {
      const r = body as { ok: unknown; value?: unknown; error?: unknown };
      if (r.ok === true) return { ok: true, value: r.value };
      if (r.ok === false && isErrorInfo(r.error)) return { ok: false, error: r.error };
    }
    return { ok: false, error: { kind: 'invalid_response', message: 'The web host sent a reply of an unexpected shape.' } };
  }

  connect();

  return {
    invoke,
    subscribe(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    connection: () => info,
    onConnection(listener) {
      connListeners.add(listener);
      return () => connListeners.delete(listener);
    },
    close() {
      closed = true;
      cancelRetry?.();
      cancelRetry = null;
      const s = socket;
      socket = null;
      s?.close();
    },
  };
}
