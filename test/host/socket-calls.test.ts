// Calls over the page's WebSocket against the real host + core + local service, with a real `ws` client.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { InvokeResponse, MonitorEvent } from '../../src/shared/contract';
import { WEB_MAX_BODY_BYTES } from '../../src/shared/web-protocol';
import { createWebTransport, type SocketLike } from '../../src/renderer/src/transport/web-transport';
import { createEventSocket, MAX_CALLS_IN_FLIGHT } from '../../src/web-server/event-socket';
import { invoke } from './http-client';
import { stackForFile } from './stack';
import { waitFor } from '../support/wait-for';
import { frameText } from '../support/ws-frame';

const web = stackForFile();

interface Reply {
  reply: number;
  response: InvokeResponse;
}

/** A page's socket: what it received, split into replies and events. */
interface Client {
  ws: WebSocket;
  replies: Reply[];
  events: MonitorEvent[];
  closed: Promise<number>;
  call(id: number, method: string, input?: unknown): void;
  reply(id: number): Promise<Reply>;
}

function connect(query = `?token=${web.token}`): Promise<Client | { status: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${web.port}/api/events${query}`);
    const replies: Reply[] = [];
    const events: MonitorEvent[] = [];
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.on('message', (data) => {
      const frame = JSON.parse(frameText(data)) as Reply | MonitorEvent;
      if ('reply' in frame) replies.push(frame);
      else events.push(frame);
    });
    ws.once('error', () => undefined);
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once('open', () =>
      resolve({
        ws,
        replies,
        events,
        closed,
        call: (id, method, input) => ws.send(JSON.stringify({ call: id, method, input: input ?? null })),
        reply: (id) => waitFor(() => replies.find((r) => r.reply === id)),
      }),
    );
  });
}

async function open(): Promise<Client> {
  const c = await connect();
  if (!('ws' in c)) throw new Error(`socket refused: ${c.status}`);
  return c;
}

describe('web host: calls over the socket', () => {
  it('answers a call on the same socket with the value HTTP answers', async () => {
    const c = await open();
    try {
      c.call(1, 'getAppInfo');
      c.call(2, 'browseMessages', { pageSize: 1000 });
      const http = (method: string, input?: unknown) => invoke(web.port, web.token, method, input).then((r) => JSON.parse(r.body) as InvokeResponse);
      expect((await c.reply(1)).response).toEqual(await http('getAppInfo'));
      expect((await c.reply(2)).response).toEqual({
        ok: false,
        error: { kind: 'invalid_input', field: 'pageSize', message: 'pageSize must not be greater than 100.' },
      });
      expect((await c.reply(2)).response).toEqual(await http('browseMessages', { pageSize: 1000 }));
    } finally {
      c.ws.close();
    }
  });

  it('answers concurrent calls as each finishes, so replies may come out of order', async () => {
    const c = await open();
    web.stack.service.setFaults('slow:1,slowMs:800');
    try {
      c.call(1, 'browseMessages', { pageSize: 3 }); // goes to the (slow) service
      c.call(2, 'getSettings'); // answered by the core alone
      const first = await waitFor(() => c.replies[0]);
      expect(first.reply).toBe(2);
      const slow = await c.reply(1);
      expect(slow.response).toMatchObject({ ok: true, value: { messages: expect.any(Array) } });
      expect(c.replies.map((r) => r.reply)).toEqual([2, 1]);
    } finally {
      web.stack.service.setFaults(null);
      c.ws.close();
    }
  });

  it('delivers events on a socket that also carries calls', async () => {
    const c = await open();
    try {
      c.call(1, 'updateSettings', { stuckThresholdMinutes: 50 });
      expect((await c.reply(1)).response.ok).toBe(true);
      const changed = await waitFor(() => c.events.find((e) => e.type === 'settings-changed'));
      expect(changed).toMatchObject({ settings: { stuckThresholdMinutes: 50 } });
    } finally {
      c.ws.close();
    }
  });

  it('answers a malformed call that has an id with invalid_input, ignores one without, and keeps the socket open', async () => {
    const c = await open();
    try {
      c.ws.send(JSON.stringify({ call: 5, method: 'nope' }));
      c.ws.send(JSON.stringify({ call: 6, method: 'getAppInfo', input: null, extra: 1 }));
      c.ws.send(JSON.stringify({ call: 7, method: '__proto__' }));
      c.ws.send(JSON.stringify({ call: 8 }));
      for (const frame of [
        'not json',
        '[1,2]',
        'null',
        '{"method":"getAppInfo"}',
        '{"call":0,"method":"getAppInfo"}',
        '{"call":-1,"method":"getAppInfo"}',
        '{"call":1.5,"method":"getAppInfo"}',
        '{"call":"9","method":"getAppInfo"}',
        `{"call":${Number.MAX_SAFE_INTEGER + 2},"method":"getAppInfo"}`,
      ]) {
        c.ws.send(frame);
      }
      c.ws.send(Buffer.from(JSON.stringify({ call: 9, method: 'getAppInfo' })), { binary: true });
      c.call(10, 'getAppInfo');
      // Frames are handled in order and a malformed one is answered at once, so by reply 10 every answer is in.
      await c.reply(10);
      expect(c.replies.map((r) => r.reply)).toEqual([5, 6, 7, 8, 10]);
      for (const r of c.replies.slice(0, 4)) expect(r.response).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
      expect(c.replies[0]!.response).toMatchObject({ error: { field: 'method' } });
      expect(c.replies[1]!.response).toMatchObject({ error: { message: expect.stringContaining('only the fields') } });
      expect(c.replies[4]!.response.ok).toBe(true);
      expect(c.ws.readyState).toBe(WebSocket.OPEN);
    } finally {
      c.ws.close();
    }
  });

  it('still refuses a missing or wrong token at the upgrade', async () => {
    expect(await connect('')).toEqual({ status: 401 });
    expect(await connect(`?token=${web.token.slice(0, -1)}x`)).toEqual({ status: 401 });
  });

  it('accepts a frame of the HTTP body limit; closes (1009) only the socket that sends a bigger one', async () => {
    const a = await open();
    const b = await open();
    try {
      const frame = (bytes: number) => {
        const head = JSON.stringify({ call: 1, method: 'addWatch', input: { address: '' } });
        return head.replace('"address":""', `"address":"${'a'.repeat(bytes - head.length)}"`);
      };
      a.ws.send(frame(WEB_MAX_BODY_BYTES));
      expect((await a.reply(1)).response).toMatchObject({ ok: false, error: { kind: 'invalid_input', field: 'address' } });
      a.ws.send(frame(WEB_MAX_BODY_BYTES + 1));
      expect(await a.closed).toBe(1009);
      b.call(1, 'getSettings');
      expect((await b.reply(1)).response.ok).toBe(true);
      expect(b.ws.readyState).toBe(WebSocket.OPEN);
    } finally {
      b.ws.close();
    }
  });

  it("carries the web transport's calls once its socket is open (no HTTP request)", async () => {
    const fetched: string[] = [];
    const transport = createWebTransport({
      origin: web.stack.app.host.origin,
      token: web.token,
      createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
      fetch: ((url: string) => {
        fetched.push(url);
        return Promise.reject(new Error('HTTP is not expected here'));
      }) as unknown as typeof fetch,
    });
    try {
      await waitFor(() => (transport.connection().state === 'open' ? true : undefined));
      const [info, settings] = await Promise.all([transport.invoke('getAppInfo', undefined), transport.invoke('getSettings', undefined)]);
      expect(info).toMatchObject({ ok: true, value: { shell: 'web' } });
      expect(settings).toMatchObject({ ok: true, value: { pollIntervalSeconds: expect.any(Number) } });
      expect(await transport.invoke('addWatch', { address: '0x1234' })).toMatchObject({ ok: false, error: { kind: 'invalid_input', field: 'address' } });
      expect(fetched).toEqual([]);
    } finally {
      transport.close();
    }
  });
});

describe('web host socket: calls in flight', () => {
  it(`answers rate_limited past ${MAX_CALLS_IN_FLIGHT} unanswered calls from one page, and takes calls again once they finish`, async () => {
    // The socket alone, with calls that wait until released: how many are running is what is tested.
    const held: (() => void)[] = [];
    const events = createEventSocket({
      runCall: () => new Promise<InvokeResponse>((resolve) => held.push(() => resolve({ ok: true, value: null }))),
      maxFrameBytes: WEB_MAX_BODY_BYTES,
    });
    const server = createServer();
    server.on('upgrade', (req, socket, head) => events.handleUpgrade(req, socket, head));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const ws = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const replies: Reply[] = [];
    ws.on('message', (data) => replies.push(JSON.parse(frameText(data)) as Reply));
    try {
      await new Promise((r) => ws.once('open', r));
      const send = (id: number) => ws.send(JSON.stringify({ call: id, method: 'getSettings', input: null }));
      for (let id = 1; id <= MAX_CALLS_IN_FLIGHT + 2; id++) send(id);
      await waitFor(() => (replies.length === 2 ? true : undefined));
      expect(held).toHaveLength(MAX_CALLS_IN_FLIGHT);
      expect(replies.map((r) => r.reply)).toEqual([MAX_CALLS_IN_FLIGHT + 1, MAX_CALLS_IN_FLIGHT + 2]);
      for (const r of replies) expect(r.response).toMatchObject({ ok: false, error: { kind: 'rate_limited' } });
      held.shift()!();
      await waitFor(() => (replies.length === 3 ? true : undefined));
      send(100);
      await waitFor(() => (held.length === MAX_CALLS_IN_FLIGHT ? true : undefined));
      expect(replies).toHaveLength(3);
      for (const release of held.splice(0)) release();
      await waitFor(() => (replies.length === MAX_CALLS_IN_FLIGHT + 3 ? true : undefined));
      expect(replies.filter((r) => r.response.ok)).toHaveLength(MAX_CALLS_IN_FLIGHT + 1);
    } finally {
      ws.close();
      await events.close();
      server.close();
    }
  });
});
