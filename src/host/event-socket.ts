/**
 * Pushes every MonitorEvent to the connected pages over WebSocket (one JSON event per frame).
 * Upgrades are authorised by the caller (server.ts) before they reach here.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, WebSocket } from 'ws';
import type { MonitorEvent } from '../shared/api';

/** A page that stops reading is dropped rather than buffering without bound. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
const HEARTBEAT_MS = 30_000;

export interface EventSocket {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  broadcast(event: MonitorEvent): void;
  readonly clientCount: number;
  close(): Promise<void>;
}

export function createEventSocket(): EventSocket {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024, perMessageDeflate: false });
  const alive = new WeakMap<WebSocket, boolean>();

  wss.on('connection', (ws) => {
    alive.set(ws, true);
    ws.on('pong', () => alive.set(ws, true));
    // The page never needs to send anything; the socket is one-way.
    ws.on('message', () => ws.close(1003, 'This socket only sends events.'));
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
      for (const ws of wss.clients) {
        if (ws.readyState !== WebSocket.OPEN) continue;
        if (ws.bufferedAmount > MAX_BUFFERED_BYTES) ws.terminate();
        else ws.send(frame);
      }
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
