/**
 * The page's WebSocket: pushes every MonitorEvent to the connected pages (one JSON event per frame)
 * and answers the calls a page sends on it (src/shared/web-protocol.ts), through the same runner as
 * HTTP. Upgrades are authorised by the caller (server.ts) before they reach here.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import type { MonitorEvent } from '../shared/contract';
import { parseCallFrame, replyFrame } from './call-frame';
import type { CallRunner } from './invoke-route';

/** A page that stops reading is dropped rather than buffering without bound. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
const HEARTBEAT_MS = 30_000;
/** Calls one page may have running at once; more are answered with rate_limited (a runaway page cannot queue without bound). */
export const MAX_CALLS_IN_FLIGHT = 64;

interface EventSocketOptions {
  /** Runs a call from a page; never rejects (failures are values). */
  runCall: CallRunner;
  /** Largest frame a page may send; a bigger one closes that page's socket (1009). */
  maxFrameBytes: number;
  /** Told the number of connected pages whenever one connects or leaves. */
  onPageCount?: (count: number) => void;
}

interface EventSocket {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  broadcast(event: MonitorEvent): void;
  readonly clientCount: number;
  close(): Promise<void>;
}

/** Sends unless the page is gone or has stopped reading (then it is dropped). */
function sendFrame(ws: WebSocket, frame: string): void {
  if (ws.readyState !== WebSocket.OPEN) return;
  if (ws.bufferedAmount > MAX_BUFFERED_BYTES) ws.terminate();
  else ws.send(frame);
}

const frameText = (data: RawData): string => (Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');

export function createEventSocket(options: EventSocketOptions): EventSocket {
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxFrameBytes, perMessageDeflate: false });
  const alive = new WeakMap<WebSocket, boolean>();
  const inFlight = new WeakMap<WebSocket, number>();

  wss.on('connection', (ws) => {
    options.onPageCount?.(wss.clients.size);
    ws.once('close', () => options.onPageCount?.(wss.clients.size));
    alive.set(ws, true);
    ws.on('pong', () => alive.set(ws, true));
    ws.on('message', (data, isBinary) => {
      if (isBinary) return; // The protocol is JSON text; a binary frame has no id to answer.
      const frame = parseCallFrame(frameText(data));
      if (frame.kind === 'ignore') return;
      if (frame.kind === 'bad') return sendFrame(ws, replyFrame(frame.id, { ok: false, error: frame.error }));
      const running = inFlight.get(ws) ?? 0;
      if (running >= MAX_CALLS_IN_FLIGHT) {
        return sendFrame(
          ws,
          replyFrame(frame.id, {
            ok: false,
            error: {
              kind: 'rate_limited',
              message: `More than ${MAX_CALLS_IN_FLIGHT} calls are waiting for the web host on this page; try again when they have finished.`,
            },
          }),
        );
      }
      inFlight.set(ws, running + 1);
      // Calls run concurrently; the id lets the page pair replies that come back out of order.
      options.runCall(frame.method, frame.input).then(
        (response) => {
          inFlight.set(ws, (inFlight.get(ws) ?? 1) - 1);
          sendFrame(ws, replyFrame(frame.id, response));
        },
        () => ws.terminate(), // runCall never rejects; should it, drop the page rather than crash the host.
      );
    });
    ws.on('error', () => ws.terminate());
  });

  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      if (alive.get(ws) === false) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  return {
    handleUpgrade(req, socket, head) {
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    },
    broadcast(event) {
      const frame = JSON.stringify(event);
      for (const ws of wss.clients) sendFrame(ws, frame);
    },
    get clientCount() {
      return wss.clients.size;
    },
    close() {
      clearInterval(heartbeat);
      for (const ws of wss.clients) ws.terminate();
      return new Promise((resolve) => wss.close(() => resolve()));
    },
  };
}
