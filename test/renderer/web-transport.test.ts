// The web transport against a real HTTP + WebSocket server on 127.0.0.1 (the host's protocol, minimal).
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, WebSocket, type WebSocket as WsSocket } from 'ws';
import { createWebTransport, type ConnectionInfo, type SocketLike } from '../../src/renderer/src/transport/web-transport';
import { createMonitorClient, type MonitorEvent } from '../../src/shared/api';
import { MonitorError } from '../../src/shared/errors';

const TOKEN = 'launch-token-123';

interface Host {
  origin: string;
  requests: { path: string; auth: string | undefined; body: unknown }[];
  sockets: Set<WsSocket>;
  socketUrls: string[];
  close(): Promise<void>;
}

async function startHost(): Promise<Host> {
  const requests: Host['requests'] = [];
  const sockets = new Set<WsSocket>();
  const socketUrls: string[] = [];
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let s = '';
      req.on('data', (c: Buffer) => (s += c.toString()));
      req.on('end', () => resolve(s));
    });
  const server: Server = createServer(async (req, res) => {
    const body = JSON.parse((await read(req)) || 'null') as { input: unknown };
    requests.push({ path: req.url ?? '', auth: req.headers.authorization, body });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401).end();
      return;
    }
    res.setHeader('content-type', 'application/json');
    if (req.url === '/api/invoke/getSettings') res.end(JSON.stringify({ ok: true, value: { theme: 'dark' } }));
    else if (req.url === '/api/invoke/addWatch') res.end(JSON.stringify({ ok: false, error: { kind: 'invalid_input', field: 'address', message: 'Address must start with 0x.' } }));
    else if (req.url === '/api/invoke/garbage') res.end('not json');
    else res.writeHead(404).end();
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    socketUrls.push(req.url ?? '');
    if (!req.url?.includes(`token=${TOKEN}`)) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    sockets,
    socketUrls,
    close: async () => {
      for (const s of sockets) s.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(token = TOKEN) {
  const host = await startHost();
  const transport = createWebTransport({
    origin: host.origin,
    token,
    createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    backoffMs: () => 30,
  });
  cleanups.push(() => host.close(), () => transport.close());
  return { host, transport };
}

const waitFor = async (cond: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('web transport', () => {
  it('calls POST /api/invoke/<method> with the bearer token and the input; results and errors are values', async () => {
    const { host, transport } = await setup();
    const api = createMonitorClient(transport, (e) => new MonitorError(e));
    await expect(api.getSettings()).resolves.toEqual({ theme: 'dark' });
    const err = await api.addWatch({ address: 'nope' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MonitorError);
    expect(err).toMatchObject({ kind: 'invalid_input', field: 'address', message: 'Address must start with 0x.' });
    expect(host.requests.map((r) => [r.path, r.auth, r.body])).toEqual([
      ['/api/invoke/getSettings', `Bearer ${TOKEN}`, { input: null }],
      ['/api/invoke/addWatch', `Bearer ${TOKEN}`, { input: { address: 'nope' } }],
    ]);
    const bad = await transport.invoke('garbage' as never, undefined);
    expect(bad).toMatchObject({ ok: false, error: { kind: 'invalid_response' } });
  });

  it('turns refusals and an unreachable host into actionable errors', async () => {
    const { transport } = await setup('wrong-token');
    expect(await transport.invoke('getSettings', undefined)).toMatchObject({ ok: false, error: { kind: 'unauthorized', status: 401, message: expect.stringContaining('?token=') } });
    const gone = createWebTransport({ origin: 'http://127.0.0.1:9', token: TOKEN, createSocket: () => ({ onopen: null, onmessage: null, onclose: null, onerror: null, close() {} }) });
    cleanups.push(() => gone.close());
    expect(await gone.invoke('getSettings', undefined)).toMatchObject({ ok: false, error: { kind: 'network', message: expect.stringContaining('start:web') } });
  });

  it('delivers events from the socket, shows the disconnection, reconnects with backoff and resumes', async () => {
    const { host, transport } = await setup();
    const states: ConnectionInfo['state'][] = [];
    transport.onConnection((c) => states.push(c.state));
    const events: MonitorEvent[] = [];
    transport.subscribe((e) => events.push(e));
    await waitFor(() => transport.connection().state === 'open' && host.sockets.size === 1);
    expect(host.socketUrls[0]).toBe(`/api/events?token=${TOKEN}`);
    for (const s of host.sockets) s.send(JSON.stringify({ type: 'watchlist-changed' }));
    await waitFor(() => events.length === 1);

    for (const s of host.sockets) s.terminate();
    await waitFor(() => transport.connection().state === 'closed');
    expect(transport.connection().retryAt).not.toBeNull();
    await waitFor(() => transport.connection().state === 'open' && host.sockets.size === 1);
    for (const s of host.sockets) {
      s.send('not json');
      s.send(JSON.stringify({ type: 'focus-message', messageId: 'ab'.repeat(32) }));
    }
    await waitFor(() => events.length === 2);
    expect(events).toEqual([{ type: 'watchlist-changed' }, { type: 'focus-message', messageId: 'ab'.repeat(32) }]);
    expect(states).toContain('closed');
    expect(states.at(-1)).toBe('open');
  });
});
