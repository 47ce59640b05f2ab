/**
 * Slow clients are cut at the limits written in src/shared/slow-clients.ts, on all three of our HTTP
 * servers (the web host, the headless watcher's /metrics, the local service), each real: 50 raw
 * sockets send their headers a byte at a time while one socket trickles a body. Every slow-header
 * socket is answered 408 and closed within the headers limit (plus the one-second sweep), while the
 * slow body is still open and ordinary requests are served; the slow body is cut at the request limit.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLOW_CLIENT_LIMITS } from '../../src/shared/slow-clients';
import type { HeadlessWatcher } from '../../src/headless/watcher';
import { rawGet, sendRaw } from '../support/raw-http';
import { waitFor } from '../support/wait-for';
import { startStack, type Stack } from '../host/stack';
import { baseConfig, startWatcher, tempDir } from '../headless/rig';

const SLOW_HEADER_SOCKETS = 50;

let stack: Stack;
let watcher: HeadlessWatcher;
const servers: { name: string; port: number; path: string }[] = [];

beforeAll(async () => {
  stack = await startStack();
  watcher = await startWatcher(tempDir('tw-slow-'), baseConfig(stack.service.url));
  servers.push(
    { name: 'web host', port: stack.app.host.port, path: '/' },
    { name: 'metrics', port: Number(new URL(watcher.metrics!.url).port), path: '/metrics' },
    { name: 'local service', port: Number(new URL(stack.service.url).port), path: '/v1/teleporter/messages?pageSize=1' },
  );
});
afterAll(async () => {
  await watcher?.close();
  await stack?.close();
});

interface Tracked {
  socket: Socket;
  closedAt: number | null;
  reply: string;
}

function track(socket: Socket): Tracked {
  const t: Tracked = { socket, closedAt: null, reply: '' };
  socket.on('data', (d: Buffer) => (t.reply += d.toString('latin1')));
  socket.on('close', () => (t.closedAt = Date.now()));
  socket.on('error', () => undefined);
  return t;
}

/** Sends a request's header bytes one every 100 ms: it would take minutes to finish. */
function slowHeaders(port: number, path: string): Tracked {
  const bytes = Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Pad: ${'a'.repeat(4000)}\r\n\r\n`);
  const t = track(connect(port, '127.0.0.1'));
  let i = 0;
  const timer = setInterval(() => {
    if (i < bytes.length && !t.socket.destroyed) t.socket.write(bytes.subarray(i, ++i));
  }, 100);
  t.socket.on('close', () => clearInterval(timer));
  return t;
}

/** Complete headers, then a body of 1 MB a byte every 100 ms. */
function slowBody(port: number): Tracked {
  const t = track(connect(port, '127.0.0.1'));
  t.socket.write(`POST /api/invoke/getAppInfo HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n`);
  const timer = setInterval(() => {
    if (!t.socket.destroyed) t.socket.write(' ');
  }, 100);
  t.socket.on('close', () => clearInterval(timer));
  return t;
}

describe('slow clients', () => {
  it('slow-header sockets are cut within the headers limit while a slow body is open; the slow body at the request limit', async () => {
    const started = Date.now();
    const runs = servers.map((s) => ({
      ...s,
      body: slowBody(s.port),
      headers: Array.from({ length: SLOW_HEADER_SOCKETS }, () => slowHeaders(s.port, s.path)),
    }));
    try {
      const headersDeadline = SLOW_CLIENT_LIMITS.headersTimeoutMs + SLOW_CLIENT_LIMITS.checkEveryMs + 3_000;
      await waitFor(() => runs.every((r) => r.headers.every((h) => h.closedAt !== null)), headersDeadline, 'every slow-header socket to be closed');
      for (const r of runs) {
        expect(r.body.closedAt, `${r.name}: the slow body is still open`).toBeNull();
        expect(
          r.headers.every((h) => h.reply.startsWith('HTTP/1.1 408')),
          `${r.name}: each slow-header socket is told 408`,
        ).toBe(true);
        expect(Math.max(...r.headers.map((h) => h.closedAt!)) - started).toBeLessThan(headersDeadline);
        // The server is not held up by any of it.
        const ok = await sendRaw(r.port, rawGet(r.path, r.port));
        expect(ok.status, `${r.name}: an ordinary request`).toBe(200);
      }
      const requestDeadline = SLOW_CLIENT_LIMITS.requestTimeoutMs + SLOW_CLIENT_LIMITS.checkEveryMs + 3_000;
      await waitFor(() => runs.every((r) => r.body.closedAt !== null), requestDeadline, 'every slow body to be cut');
      for (const r of runs) expect(r.body.closedAt! - started, r.name).toBeLessThan(requestDeadline);
    } finally {
      for (const r of runs) for (const t of [r.body, ...r.headers]) t.socket.destroy();
    }
  }, 90_000);
});
