/**
 * No request of any shape stops the web host: known killers and fast-check's hostile requests go
 * over a raw socket; each refusal carries the host's JSON error body and the page is still served.
 */
import { describe, expect, it } from 'vitest';
import { rawGet, sendRaw } from '../support/raw-http';
import { expectKnownKillersRefused, fuzzServer } from '../support/hostile-requests';
import { stackForFile } from './stack';

const web = stackForFile();

const isHostError = (body: unknown) => typeof (body as { error?: unknown }).error === 'string';
const healthy = async () => (await sendRaw(web.port, rawGet('/', web.port))).status === 200;

describe('web host: hostile requests', () => {
  it('answers each known killer with a JSON error and keeps serving', async () => {
    await expectKnownKillersRefused(web.port, isHostError, healthy);
  });

  it('a 100 KB URL gets 431, a raw non-ASCII byte 400, an odd Expect 417, all as JSON', async () => {
    const long = await sendRaw(web.port, rawGet('/' + 'a'.repeat(100_000), web.port));
    expect(long.status).toBe(431);
    expect(JSON.parse(long.body).error).toMatch(/too large/);
    const byte = await sendRaw(web.port, rawGet(Buffer.from([0x2f, 0xff]), web.port));
    expect(byte.status).toBe(400);
    expect(JSON.parse(byte.body).error).toMatch(/not allowed in a URL/);
    const expectation = await sendRaw(web.port, rawGet('/', web.port, ['Expect: teapot']));
    expect(expectation.status).toBe(417);
    expect(JSON.parse(expectation.body).error).toMatch(/100-continue/);
  });

  it('never serves a hidden source map, with or without the token', async () => {
    const map = await sendRaw(web.port, rawGet('/assets/index-abc123.js.map', web.port));
    expect(map.status).toBe(404);
  });

  it('survives fast-check hostile targets, query strings and headers', async () => {
    await fuzzServer(web.port, isHostError, healthy);
  });
});
