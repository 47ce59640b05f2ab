import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { MonitorEvent } from '../../src/shared/contract';
import { WEB_MAX_BODY_BYTES } from '../../src/shared/web-protocol';
import { invoke, rawRequest } from './http-client';
import { stackForFile, TEST_CSP } from './stack';
import { waitFor } from '../support/wait-for';
import { frameText } from '../support/ws-frame';

const web = stackForFile();

describe('web host: launch URL', () => {
  it('prints a loopback URL carrying the token', () => {
    expect(web.stack.app.host.url).toBe(`http://127.0.0.1:${web.port}/?token=${web.token}`);
    expect(web.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('web host: API calls', () => {
  it('answers a call with the core result, never cached', async () => {
    const r = await invoke(web.port, web.token, 'getAppInfo');
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(r.body);
    expect(body).toEqual({
      ok: true,
      value: { version: expect.any(String), shell: 'web', dataSource: { kind: 'local', baseUrl: web.stack.service.url, network: 'mainnet', simulated: true } },
    });
  });

  it('pages through the local service through the core', async () => {
    const first = JSON.parse((await invoke(web.port, web.token, 'browseMessages', { pageSize: 5 })).body);
    expect(first.ok).toBe(true);
    expect(first.value.messages).toHaveLength(5);
    expect(first.value.nextPageToken).toEqual(expect.any(String));
    const second = JSON.parse((await invoke(web.port, web.token, 'browseMessages', { pageSize: 5, pageToken: first.value.nextPageToken })).body);
    expect(second.value.messages).toHaveLength(5);
    const ids = new Set([...first.value.messages, ...second.value.messages].map((m: { messageId: string }) => m.messageId));
    expect(ids.size).toBe(10);
  });

  it('refuses a missing or wrong token with 401', async () => {
    const missing = await rawRequest(web.port, { method: 'POST', path: '/api/invoke/getAppInfo', body: '{}' });
    expect(missing.status).toBe(401);
    const wrong = await invoke(web.port, web.token.slice(0, -1) + (web.token.endsWith('A') ? 'B' : 'A'), 'getAppInfo');
    expect(wrong.status).toBe(401);
    const basic = await invoke(web.port, web.token, 'getAppInfo', undefined, { authorization: `Basic ${web.token}` });
    expect(basic.status).toBe(401);
    expect(JSON.parse(wrong.body).error).toMatch(/token/);
  });

  it('refuses a foreign Host with 403 (DNS rebinding), even with the right token', async () => {
    for (const host of [`evil.example:${web.port}`, `127.0.0.1:${web.port + 1}`, '127.0.0.1', `localhost.evil.example:${web.port}`]) {
      const r = await invoke(web.port, web.token, 'getAppInfo', undefined, { host });
      expect(r.status, host).toBe(403);
    }
    expect((await invoke(web.port, web.token, 'getAppInfo', undefined, { host: `localhost:${web.port}` })).status).toBe(200);
  });

  it('refuses a cross-origin request with 403 (CSRF), accepts the same origin', async () => {
    for (const origin of ['http://evil.example', `http://localhost:${web.port}`, 'null', `https://127.0.0.1:${web.port}`]) {
      expect((await invoke(web.port, web.token, 'getAppInfo', undefined, { origin })).status, origin).toBe(403);
    }
    expect((await invoke(web.port, web.token, 'getAppInfo', undefined, { origin: `http://127.0.0.1:${web.port}` })).status).toBe(200);
  });

  it('answers 404 for a method outside the contract', async () => {
    for (const m of ['nope', 'constructor', '__proto__', 'toString', 'getAppInfo/extra']) {
      expect((await invoke(web.port, web.token, m)).status, m).toBe(404);
    }
  });

  it('turns invalid input into a typed invalid_input value naming the field', async () => {
    const r = await invoke(web.port, web.token, 'browseMessages', { pageSize: 1000 });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ ok: false, error: { kind: 'invalid_input', field: 'pageSize', message: 'pageSize must not be greater than 100.' } });
    const addr = JSON.parse((await invoke(web.port, web.token, 'addWatch', { address: '0x1234' })).body);
    expect(addr.ok).toBe(false);
    expect(addr.error).toMatchObject({ kind: 'invalid_input', field: 'address' });
    const extra = JSON.parse((await invoke(web.port, web.token, 'getPollStatus', { surprise: 1 })).body);
    expect(extra.error.kind).toBe('invalid_input');
  });

  it('turns a body that is not the protocol into an invalid_input value', async () => {
    const headers = { authorization: `Bearer ${web.token}`, 'content-type': 'application/json' };
    for (const body of ['{not json', '[1,2]', '{"input":1,"more":2}']) {
      const r = await rawRequest(web.port, { method: 'POST', path: '/api/invoke/getAppInfo', headers, body });
      expect(r.status, body).toBe(200);
      expect(JSON.parse(r.body).error.kind, body).toBe('invalid_input');
    }
  });

  it('refuses a body over the size limit with 413', async () => {
    const r = await rawRequest(web.port, {
      method: 'POST',
      path: '/api/invoke/addWatch',
      headers: { authorization: `Bearer ${web.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { address: '0x'.padEnd(WEB_MAX_BODY_BYTES + 10, 'a') } }),
    });
    expect(r.status).toBe(413);
  });

  it('accepts only POST for calls', async () => {
    const r = await rawRequest(web.port, { method: 'GET', path: '/api/invoke/getAppInfo', headers: { authorization: `Bearer ${web.token}` } });
    expect(r.status).toBe(405);
  });
});

describe('web host: static files', () => {
  it('serves the page with the security headers', async () => {
    const r = await rawRequest(web.port, { path: `/?token=${web.token}` });
    expect(r.status).toBe(200);
    expect(r.body).toContain('<div id="app">');
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    // The page's policy, with connect-src pinned to this host's own port.
    const own = `http://127.0.0.1:${web.port} ws://127.0.0.1:${web.port} http://localhost:${web.port} ws://localhost:${web.port}`;
    expect(r.headers['content-security-policy']).toBe(`${TEST_CSP.replace("connect-src 'self'", `connect-src 'self' ${own}`)}; frame-ancestors 'none'`);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    expect(r.headers['x-frame-options']).toBe('DENY');
  });

  it('serves assets with their content types and long caching', async () => {
    const js = await rawRequest(web.port, { path: '/assets/index-abc123.js' });
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toContain('immutable');
    const css = await rawRequest(web.port, { path: '/assets/index-abc123.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const head = await rawRequest(web.port, { method: 'HEAD', path: '/assets/index-abc123.js' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('refuses path traversal', async () => {
    for (const path of ['/../outside.txt', '/assets/../../outside.txt', '/%2e%2e/outside.txt', '/assets/%2e%2e%2f%2e%2e%2foutside.txt', '/..%5coutside.txt']) {
      const r = await rawRequest(web.port, { path });
      expect(r.status, path).toBe(404);
      expect(r.body).not.toContain('must never be served');
    }
  });

  it('refuses a foreign Host for static files too', async () => {
    expect((await rawRequest(web.port, { path: '/', headers: { host: `attacker.example:${web.port}` } })).status).toBe(403);
  });

  it('answers 404 for missing files and 405 for other methods', async () => {
    expect((await rawRequest(web.port, { path: '/missing.js' })).status).toBe(404);
    expect((await rawRequest(web.port, { method: 'POST', path: '/' })).status).toBe(405);
  });
});

function openSocket(query: string, headers: Record<string, string> = {}): Promise<{ ws: WebSocket; events: MonitorEvent[] } | { status: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${web.port}/api/events${query}`, { headers });
    const events: MonitorEvent[] = [];
    ws.on('message', (data) => events.push(JSON.parse(frameText(data)) as MonitorEvent));
    ws.once('open', () => resolve({ ws, events }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once('error', () => undefined);
  });
}

describe('web host: event socket', () => {
  it('refuses a missing or wrong token with 401', async () => {
    expect(await openSocket('')).toEqual({ status: 401 });
    expect(await openSocket('?token=wrong')).toEqual({ status: 401 });
  });

  it('refuses a foreign Origin or Host with 403', async () => {
    expect(await openSocket(`?token=${web.token}`, { origin: 'http://evil.example' })).toEqual({ status: 403 });
    expect(await openSocket(`?token=${web.token}`, { host: `evil.example:${web.port}` })).toEqual({ status: 403 });
  });

  it('delivers the core events as JSON frames', async () => {
    const s = await openSocket(`?token=${web.token}`, { origin: `http://127.0.0.1:${web.port}` });
    if (!('ws' in s)) throw new Error(`socket refused: ${s.status}`);
    try {
      const upd = JSON.parse((await invoke(web.port, web.token, 'updateSettings', { stuckThresholdMinutes: 45 })).body);
      expect(upd.ok).toBe(true);
      const changed = await waitFor(() => s.events.find((e) => e.type === 'settings-changed'));
      expect(changed).toMatchObject({ type: 'settings-changed', settings: { stuckThresholdMinutes: 45 } });
      await invoke(web.port, web.token, 'pollNow');
      const status = await waitFor(() => s.events.find((e) => e.type === 'poll-status'));
      expect(status).toMatchObject({ type: 'poll-status', status: { state: expect.any(String) } });
    } finally {
      s.ws.close();
    }
  });

  it('delivers a transition of a watched address as it is detected', async () => {
    const s = await openSocket(`?token=${web.token}`);
    if (!('ws' in s)) throw new Error(`socket refused: ${s.status}`);
    try {
      const address = web.stack.service.simulator.addresses[3] as string;
      expect(JSON.parse((await invoke(web.port, web.token, 'addWatch', { address, label: 'test' })).body).ok).toBe(true);
      await invoke(web.port, web.token, 'pollNow'); // takes the baseline of its history
      const messageId = web.stack.service.simulator.send({ network: 'mainnet', from: address, outcome: 'normal', deliveryDelayMs: 3_600_000 });
      await invoke(web.port, web.token, 'pollNow');
      const batch = await waitFor(() => s.events.find((e) => e.type === 'transitions' && e.transitions.some((t) => t.messageId === messageId)));
      // (The same cycle may also log a change of a message its baseline found open.)
      expect(batch).toMatchObject({
        type: 'transitions',
        transitions: expect.arrayContaining([
          expect.objectContaining({ messageId, kind: 'new', toStatus: 'pending', watchers: [{ kind: 'address', address }] }),
        ]),
      });
      // The batch carries the watch's row as it now stands: its unread messages, the new one among them.
      const row = batch.type === 'transitions' ? batch.watches.find((w) => w.address === address) : undefined;
      expect(row?.unread).toBeGreaterThanOrEqual(1);
    } finally {
      s.ws.close();
    }
  });
});
