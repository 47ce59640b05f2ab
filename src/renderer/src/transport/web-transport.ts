import { type InvokeResponse, type MonitorEvent, type MonitorMethod, type MonitorTransport } from '../../../shared/contract';
import { WEB_EVENTS_PATH, WEB_TOKEN_PARAM } from '../../../shared/web-protocol';
import { httpInvoke } from './http-invoke';
import { createSocketCalls, type SetTimer } from './socket-calls';

type ConnectionState = 'connecting' | 'open' | 'closed';

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
  send(data: string): void;
  close(): void;
}

interface WebTransportOptions {
  /** Page origin, e.g. http://127.0.0.1:5173 */
  origin: string;
  token: string;
  fetch?: typeof fetch;
  createSocket?: (url: string) => SocketLike;
  /** Backoff for reconnects: 0.5 s doubling up to 15 s. */
  backoffMs?: (attempt: number) => number;
  setTimer?: SetTimer;
  now?: () => number;
  /** How long a call over the socket waits for its reply (default WEB_CALL_TIMEOUT_MS). */
  callTimeoutMs?: number;
}

export interface WebTransport extends MonitorTransport {
  connection(): ConnectionInfo;
  onConnection(listener: (info: ConnectionInfo) => void): () => void;
  close(): void;
}

const SOCKET_CLOSED =
  'The connection to the web host closed before it answered (the call may or may not have taken effect). Is `npm run start:web` still running?';

const defaultBackoff = (attempt: number): number => Math.min(15_000, 500 * 2 ** Math.max(0, attempt - 1));

/**
 * MonitorTransport over the web host's protocol (src/shared/web-protocol.ts): calls go over the
 * page's socket while it is open (no per-call HTTP request for the browser to set up), else over
 * HTTP; events come over the socket.
 */
export function createWebTransport(opts: WebTransportOptions): WebTransport {
  const doFetch = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const createSocket = opts.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
  const backoff = opts.backoffMs ?? defaultBackoff;
  const setTimer =
    opts.setTimer ??
    ((fn: () => void, ms: number) => {
      const t = setTimeout(fn, ms);
      return () => clearTimeout(t);
    });
  const now = opts.now ?? Date.now;
  const calls = createSocketCalls(setTimer, opts.callTimeoutMs);

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
      if (typeof parsed !== 'object' || parsed === null || calls.handleFrame(parsed)) return;
      // Checked against the contract by the renderer's event door (monitor-events.ts), as IPC events are.
      for (const l of eventListeners) l(parsed as MonitorEvent);
    };
    s.onerror = () => undefined; // onclose follows and schedules the reconnect.
    s.onclose = () => {
      if (socket === s) socket = null;
      // A reply comes only on the socket that carried its call. The call is not resent over HTTP:
      // it may have taken effect already.
      calls.failAll({ kind: 'network', message: SOCKET_CLOSED });
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

  function invoke(method: MonitorMethod, input: unknown): Promise<InvokeResponse> {
    const s = info.state === 'open' ? socket : null;
    const viaSocket = s ? calls.call((frame) => s.send(frame), method, input) : null;
    return viaSocket ?? httpInvoke(doFetch, opts.origin, opts.token, method, input);
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
      calls.failAll({ kind: 'network', message: 'The page closed its connection to the web host.' });
      s?.close();
    },
  };
}
