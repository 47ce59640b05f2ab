// The web transport against a real HTTP + WebSocket server on 127.0.0.1 (the host's protocol, minimal).
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, WebSocket, type WebSocket as WsSocket } from 'ws';
import { createMonitorEvents } from '../../src/renderer/src/monitor-events';
import { createWebTransport, type ConnectionInfo, type SocketLike } from '../../src/renderer/src/transport/web-transport';
import { type MonitorEvent } from '../../src/shared/contract';
import { createMonitorClient } from '../../src/renderer/src/transport/monitor-client';
import { MonitorError } from '../../src/shared/errors';
import { WEB_MAX_BODY_BYTES } from '../../src/shared/web-protocol';
import { waitFor } from '../support/wait-for';

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
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.parse((await read(req)) || 'null') as { input: unknown };
    requests.push({ path: req.url ?? '', auth: req.headers.authorization, body });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401).end();
      return;
    }
    res.setHeader('content-type', 'application/json');
    if (req.url === '/api/invoke/getSettings') res.end(JSON.stringify({ ok: true, value: { theme: 'dark' } }));
    else if (req.url === '/api/invoke/addWatch')
      res.end(JSON.stringify({ ok: false, error: { kind: 'invalid_input', field: 'address', message: 'Address must start with 0x.' } }));
    else if (req.url === '/api/invoke/garbage') res.end('not json');
    else res.writeHead(404).end();
  };
  // A throw in answer() surfaces as an unhandled rejection, which fails the test run.
  const server: Server = createServer((req, res) => void answer(req, res));
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

/** A socket that never opens: every call takes the HTTP path. */
const silentSocket = (): SocketLike => ({ onopen: null, onmessage: null, onclose: null, onerror: null, send() {}, close() {} });

async function setup(token = TOKEN, socket: 'real' | 'silent' = 'real') {
  const host = await startHost();
  const transport = createWebTransport({
    origin: host.origin,
    token,
    createSocket: socket === 'real' ? (url) => new WebSocket(url) as unknown as SocketLike : silentSocket,
    backoffMs: () => 30,
  });
  cleanups.push(
    () => host.close(),
    () => transport.close(),
  );
  return { host, transport };
}

describe('web transport', () => {
  it('calls POST /api/invoke/<method> with the bearer token and the input; results and errors are values', async () => {
    const { host, transport } = await setup(TOKEN, 'silent');
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
    expect(await transport.invoke('getSettings', undefined)).toMatchObject({
      ok: false,
      error: { kind: 'unauthorized', status: 401, message: expect.stringContaining('?token=') },
    });
    const gone = createWebTransport({ origin: 'http://127.0.0.1:9', token: TOKEN, createSocket: silentSocket });
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

/** A SocketLike the test drives by hand: open it, deliver frames, drop it; it records what was sent. */
class FakeSocket implements SocketLike {
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  sent: string[] = [];
  failSend = false;
  send(data: string) {
    if (this.failSend) throw new Error('InvalidStateError');
    this.sent.push(data);
  }
  close() {}
  open() {
    this.onopen?.({});
  }
  deliver(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop() {
    this.onclose?.({});
  }
  /** The call frames sent so far, parsed. */
  calls() {
    return this.sent.map((f) => JSON.parse(f) as { call: number; method: string; input: unknown });
  }
}

/** Timers fired by the test: the reconnect backoff and the call timeouts. */
function manualTimers() {
  const timers: { fn: () => void; ms: number; cancelled: boolean }[] = [];
  return {
    timers,
    setTimer: (fn: () => void, ms: number) => {
      const t = { fn, ms, cancelled: false };
      timers.push(t);
      return () => (t.cancelled = true);
    },
    live: (ms: number) => timers.filter((t) => t.ms === ms && !t.cancelled),
  };
}

const CALL_TIMEOUT = 30_000;

function fakeSetup() {
  const sockets: FakeSocket[] = [];
  const fetched: { url: string; body: unknown }[] = [];
  const time = manualTimers();
  const fakeFetch = (async (url: string, init: RequestInit) => {
    fetched.push({ url, body: JSON.parse(typeof init.body === 'string' ? init.body : '') });
    return new Response(JSON.stringify({ ok: true, value: 'via-http' }), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  const transport = createWebTransport({
    origin: 'http://127.0.0.1:4000',
    token: TOKEN,
    fetch: fakeFetch,
    createSocket: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
    backoffMs: () => 100,
    setTimer: time.setTimer,
    callTimeoutMs: CALL_TIMEOUT,
  });
  cleanups.push(() => transport.close());
  const socket = () => sockets.at(-1)!;
  return { transport, sockets, socket, fetched, time };
}

describe('web transport: calls over the socket', () => {
  it('sends calls over the socket while it is open and pairs replies that come out of order', async () => {
    const { transport, socket, fetched } = fakeSetup();
    socket().open();
    const a = transport.invoke('getSettings', undefined);
    const b = transport.invoke('searchCache', { text: 'abc', limit: 5 });
    expect(socket().calls()).toEqual([
      { call: 1, method: 'getSettings', input: null },
      { call: 2, method: 'searchCache', input: { text: 'abc', limit: 5 } },
    ]);
    socket().deliver({ reply: 2, response: { ok: true, value: 'second' } });
    socket().deliver({ reply: 1, response: { ok: false, error: { kind: 'invalid_input', field: 'x', message: 'Bad x.' } } });
    await expect(b).resolves.toEqual({ ok: true, value: 'second' });
    await expect(a).resolves.toEqual({ ok: false, error: { kind: 'invalid_input', field: 'x', message: 'Bad x.' } });
    expect(fetched).toEqual([]);
  });

  it('keeps events apart from replies; a reply of the wrong shape is an invalid_response value', async () => {
    const { transport, socket } = fakeSetup();
    const events: MonitorEvent[] = [];
    transport.subscribe((e) => events.push(e));
    socket().open();
    const call = transport.invoke('getSettings', undefined);
    socket().deliver({ type: 'watchlist-changed' });
    socket().deliver({ reply: 99, response: { ok: true, value: 'nobody asked' } });
    socket().deliver({ reply: 1, response: { ok: 'maybe' } });
    await expect(call).resolves.toMatchObject({ ok: false, error: { kind: 'invalid_response' } });
    expect(events).toEqual([{ type: 'watchlist-changed' }]);
  });

  it("through the renderer's event door: a transitions batch that matches the contract passes, one that does not (e.g. a feed as a string) is dropped and reported", () => {
    const { transport, socket } = fakeSetup();
    const events: MonitorEvent[] = [];
    const warnings: string[] = [];
    const door = createMonitorEvents(
      (l) => transport.subscribe(l),
      (m) => warnings.push(m),
    );
    cleanups.push(() => door.close());
    door.on('transitions', (e) => events.push(e));
    socket().open();
    const t = {
      id: 1,
      messageId: 'ab'.repeat(32),
      kind: 'new',
      fromStatus: null,
      toStatus: 'pending',
      at: 1,
      network: 'mainnet',
      sourceBlockchainId: 'a',
      destinationBlockchainId: 'b',
      source: 'local',
    };
    const good = { type: 'transitions', transitions: [{ ...t, watchers: [{ kind: 'feed', feedId: 'f1' }] }], watches: [] };
    socket().deliver({ type: 'transitions', transitions: [{ ...t, watchers: ['feed:f1'] }], watches: [] });
    socket().deliver({ type: 'transitions', transitions: [], watches: [] });
    socket().deliver(good);
    expect(events).toEqual([good]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/transitions\.0\.watchers\.0/);
  });

  it('uses HTTP while the socket is connecting or closed, and again once it reopens uses the socket', async () => {
    const { transport, sockets, socket, fetched, time } = fakeSetup();
    expect(transport.connection().state).toBe('connecting');
    await expect(transport.invoke('getSettings', undefined)).resolves.toEqual({ ok: true, value: 'via-http' });
    socket().open();
    socket().drop();
    expect(transport.connection().state).toBe('closed');
    await expect(transport.invoke('getPollStatus', undefined)).resolves.toEqual({ ok: true, value: 'via-http' });
    expect(fetched.map((f) => f.url)).toEqual(['http://127.0.0.1:4000/api/invoke/getSettings', 'http://127.0.0.1:4000/api/invoke/getPollStatus']);
    expect(sockets[0]!.sent).toEqual([]);

    time.live(100)[0]!.fn(); // the reconnect
    socket().open();
    const call = transport.invoke('getAppInfo', undefined);
    expect(socket().calls()).toMatchObject([{ method: 'getAppInfo' }]);
    socket().deliver({ reply: socket().calls()[0]!.call, response: { ok: true, value: 'via-socket' } });
    await expect(call).resolves.toEqual({ ok: true, value: 'via-socket' });
    expect(fetched).toHaveLength(2);
  });

  it('answers pending calls with a network error when the socket closes, without resending them over HTTP', async () => {
    const { transport, socket, fetched, time } = fakeSetup();
    socket().open();
    const a = transport.invoke('addWatch', { address: '0xabc' });
    const b = transport.invoke('pollNow', undefined);
    socket().drop();
    for (const r of [await a, await b]) {
      expect(r).toMatchObject({ ok: false, error: { kind: 'network', message: expect.stringContaining('start:web') } });
    }
    expect(fetched).toEqual([]);
    expect(time.live(CALL_TIMEOUT)).toEqual([]); // their timeouts are cancelled: nothing left behind
    socket().deliver({ reply: 1, response: { ok: true, value: 'late' } }); // a late reply has nobody to go to
  });

  it('answers pending calls when the page closes the transport', async () => {
    const { transport, socket } = fakeSetup();
    socket().open();
    const a = transport.invoke('getSettings', undefined);
    transport.close();
    await expect(a).resolves.toMatchObject({ ok: false, error: { kind: 'network' } });
  });

  it('gives up on a call the host does not answer in time, with a clear error; a late reply is dropped', async () => {
    const { transport, socket, time } = fakeSetup();
    socket().open();
    const slow = transport.invoke('pollNow', undefined);
    const fast = transport.invoke('getSettings', undefined);
    socket().deliver({ reply: 2, response: { ok: true, value: 'fast' } });
    await expect(fast).resolves.toEqual({ ok: true, value: 'fast' });
    const timers = time.live(CALL_TIMEOUT);
    expect(timers).toHaveLength(1);
    timers[0]!.fn();
    await expect(slow).resolves.toEqual({
      ok: false,
      error: { kind: 'timeout', message: 'The web host did not answer within 30 s. The call may still have taken effect; check before repeating it.' },
    });
    socket().deliver({ reply: 1, response: { ok: true, value: 'too late' } });
    expect(transport.connection().state).toBe('open');
  });

  it('sends over HTTP what the socket cannot carry: a frame over the size limit, or a send that throws', async () => {
    const { transport, socket, fetched } = fakeSetup();
    socket().open();
    const big = { address: 'é'.repeat(WEB_MAX_BODY_BYTES / 2) }; // fewer characters than the limit, more bytes
    await expect(transport.invoke('addWatch', big)).resolves.toEqual({ ok: true, value: 'via-http' });
    socket().failSend = true;
    await expect(transport.invoke('getSettings', undefined)).resolves.toEqual({ ok: true, value: 'via-http' });
    expect(socket().sent).toEqual([]);
    expect(fetched.map((f) => f.url.split('/').pop())).toEqual(['addWatch', 'getSettings']);
  });
});
