// A core that throws (it never should) must not take the host down: both call paths answer `internal`.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startWebServer, type WebServer } from '../../src/web-server/server';
import { invoke } from './http-client';
import { makeRendererDir } from './stack';
import { waitFor } from '../support/wait-for';
import { frameText } from '../support/ws-frame';

let base: string;
let host: WebServer;
const logged: string[] = [];

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'tw-runner-')));
  host = await startWebServer({
    core: {
      invoke: (method) => (method === 'getSettings' ? Promise.reject(new Error('boom')) : Promise.resolve({ ok: true, value: method })),
      onEvent: () => () => undefined,
      attachNotifier: () => () => undefined,
    },
    rendererDir: makeRendererDir(base),
    logger: { debug() {}, info() {}, warn() {}, error: (msg) => logged.push(msg) },
  });
});
afterAll(async () => {
  await host?.close();
  rmSync(base, { recursive: true, force: true });
});

const internal = { ok: false, error: { kind: 'internal', message: 'Internal error; see the host log.' } };

describe('web host: a call the core fails to turn into a value', () => {
  it('answers internal over HTTP and over the socket, logs it, and keeps serving', async () => {
    expect(JSON.parse((await invoke(host.port, host.token, 'getSettings')).body)).toEqual(internal);

    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/api/events?token=${host.token}`);
    const replies: unknown[] = [];
    ws.on('message', (d) => replies.push(JSON.parse(frameText(d))));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ call: 1, method: 'getSettings' }));
    ws.send(JSON.stringify({ call: 2, method: 'getAppInfo' }));
    await waitFor(() => replies.length >= 2, 5000, 'both replies');
    ws.close();
    expect(replies).toEqual(
      expect.arrayContaining([
        { reply: 1, response: internal },
        { reply: 2, response: { ok: true, value: 'getAppInfo' } },
      ]),
    );
    expect(logged).toEqual(['web host call failed', 'web host call failed']);
  });
});
