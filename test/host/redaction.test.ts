/**
 * A hostile upstream that echoes the API key in its error bodies and headers cannot carry it out of
 * the core: not into getPollStatus, testApiKey or pollNow answers, WebSocket frames, core events or
 * the log file. Its text is cut to a short reason. Real HTTP server, real core, real web host.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { launchWebApp, type WebApp } from '../../src/host/app';
import { MAX_REASON_CHARS } from '../../src/shared/policy';
import type { MonitorEvent } from '../../src/shared/contract';
import { invoke } from './http-client';
import { makeRendererDir } from './stack';
import { waitFor } from '../support/wait-for';
import { frameText } from '../support/ws-frame';

const KEY = `echo-me-${Date.now().toString(36)}-Secret_Key`;
const CANDIDATE = `candidate-${Date.now().toString(36)}-Other_Key`;
let status = 401;
let upstream: Server;
let app: WebApp;
let base: string;
const frames: string[] = [];
const coreEvents: MonitorEvent[] = [];
let ws: WebSocket;

beforeAll(async () => {
  // Echoes whatever key it was sent, raw and URL-encoded, in the body and in headers, at length.
  upstream = createServer((req, res) => {
    const sent = String(req.headers['x-glacier-api-key'] ?? req.headers['x-service-api-key'] ?? '');
    const body = JSON.stringify({
      statusCode: status,
      error: 'Nope',
      message: `Key ${sent} (${encodeURIComponent(sent)}) is not valid here; request headers: ${JSON.stringify(req.headers)} ${'padding '.repeat(100)}`,
    });
    res.writeHead(status, { 'content-type': 'application/json', 'x-echo-key': sent, 'www-authenticate': `Bearer realm="${sent}"`, 'retry-after': '1' });
    res.end(body);
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  base = realpathSync(mkdtempSync(join(tmpdir(), 'tw-redact-')));
  app = await launchWebApp({
    dataDir: join(base, 'data'),
    rendererDir: makeRendererDir(base),
    localService: { kind: 'url', url },
    source: { kind: 'custom', baseUrl: url },
    keychainService: `teleporter-watch-test-${process.pid}-${Date.now()}`,
    autoPoll: false,
  });
  app.core.onEvent((e) => coreEvents.push(e));
  ws = new WebSocket(`ws://127.0.0.1:${app.host.port}/api/events?token=${app.host.token}`);
  ws.on('message', (d) => frames.push(frameText(d)));
  await new Promise((r) => ws.once('open', r));
});
afterAll(async () => {
  ws?.close();
  await app?.close();
  upstream?.close();
  rmSync(base, { recursive: true, force: true });
});

const call = async (method: string, input?: unknown) => (await invoke(app.host.port, app.host.token, method, input)).body;

describe('secrets never leave the core', () => {
  it('keeps an echoed key out of every answer, frame, event and log line, and shortens upstream text', async () => {
    const answers: string[] = [];
    answers.push(await call('setApiKey', { key: KEY }));
    await call('addWatch', { address: '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf' });
    // 500s are retried with backoff and 429s waited out: real seconds, so each status is asked a few times only.
    for (const s of [401, 500, 429, 400]) {
      status = s;
      answers.push(await call('pollNow'));
      answers.push(await call('getPollStatus'));
      answers.push(await call('testApiKey'));
      if (s === 401 || s === 400) answers.push(await call('testApiKey', { key: CANDIDATE }));
    }
    status = 401;
    const polled = JSON.parse(answers[1]!) as { ok: true; value: { lastError: { kind: string; message: string } } };
    expect(polled.value.lastError.kind).toBe('unauthorized');
    expect(polled.value.lastError.message).toContain('[redacted]');
    const tested = JSON.parse(answers[1 + 2]!) as { ok: true; value: { ok: boolean; message: string } };
    expect(tested.value.ok).toBe(false);
    expect(tested.value.message).toContain('HTTP 401');
    expect(tested.value.message).toContain('[redacted]');
    // Status plus a short reason: the padding (~900 characters) is cut.
    expect(tested.value.message.length).toBeLessThan(MAX_REASON_CHARS + 200);
    await waitFor(() => (frames.some((f) => f.includes('"poll-status"')) ? true : undefined));

    const log = readFileSync(join(base, 'data', 'logs', 'core.log'), 'utf8');
    for (const [where, text] of [
      ['answers', answers.join('\n')],
      ['frames', frames.join('\n')],
      ['events', JSON.stringify(coreEvents)],
      ['log', log],
    ] as const) {
      for (const secret of [KEY, CANDIDATE, encodeURIComponent(KEY)]) expect(text.includes(secret), `${where} hold ${secret}`).toBe(false);
    }
    expect(answers.join('\n')).toContain('[redacted]');
  }, 120_000);
});
