/**
 * API keys (401) and per-caller sliding-window rate limits (429 + RateLimit headers), on a ManualClock.
 * A limit in requests a minute is counted in compute units at the list operations' 20 CU, as the headers say.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import type { SimulatedServiceOptions } from '../../src/local-service';
import { get, serve } from './helpers';

const KEY = 'test-key-0123456789';
const OTHER_KEY = 'second-key-9876543210';
const LIST = '/v1/teleporter/messages?pageSize=1';

describe('API keys', () => {
  it('without configured keys, anonymous requests pass and any key is refused', async () => {
    const s = await serve({ clock: new ManualClock() });
    expect((await get(s.url + LIST)).status).toBe(200);
    const r = await get(s.url + LIST, { 'x-service-api-key': 'whatever-key' });
    expect(r.status).toBe(401);
    expect(r.json).toEqual({
      message: 'Invalid API key: the value of the x-service-api-key header does not match a configured key.',
      statusCode: 401,
      error: 'Unauthorized',
    });
  });

  it("accepts the key in x-glacier-api-key (the official SDK's header) as well as x-service-api-key, and says which header was wrong", async () => {
    const s = await serve({ clock: new ManualClock(), apiKeys: [KEY], requireKey: true });
    const glacier = await get(s.url + LIST, { 'x-glacier-api-key': KEY });
    expect(glacier.status).toBe(200);
    expect(glacier.headers.get('ratelimit-limit')).toBe('20000000');
    expect((await get(s.url + LIST, { 'x-service-api-key': KEY })).status).toBe(200);
    // One right key is enough, whichever header carries it.
    expect((await get(s.url + LIST, { 'x-glacier-api-key': KEY, 'x-service-api-key': 'stale-key-000' })).status).toBe(200);
    const wrong = await get(s.url + LIST, { 'x-glacier-api-key': 'wrong-key-123' });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({
      message: 'Invalid API key: the value of the x-glacier-api-key header does not match a configured key.',
      statusCode: 401,
      error: 'Unauthorized',
    });
  });

  it('accepts a configured key, refuses a wrong one, and allows no key unless a key is required', async () => {
    const s = await serve({ clock: new ManualClock(), apiKeys: [KEY, OTHER_KEY] });
    expect((await get(s.url + LIST, { 'x-service-api-key': KEY })).status).toBe(200);
    expect((await get(s.url + LIST, { 'x-service-api-key': OTHER_KEY })).status).toBe(200);
    expect((await get(s.url + LIST)).status).toBe(200);
    const wrong = await get(s.url + LIST, { 'x-service-api-key': KEY + 'x' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('ratelimit-limit')).toBe('20000000');
  });

  it('with requireKey, a missing key gets 401 on every API path, including unknown ones', async () => {
    const s = await serve({ clock: new ManualClock(), apiKeys: [KEY], requireKey: true });
    for (const path of [LIST, '/v1/icm/addresses/0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed/messages', '/v1/nothing']) {
      const r = await get(s.url + path);
      expect(r.status).toBe(401);
      expect(r.json).toEqual({
        message: 'Missing API key: send it in the x-glacier-api-key header (x-service-api-key is accepted too).',
        statusCode: 401,
        error: 'Unauthorized',
      });
    }
    expect((await get(s.url + LIST, { 'x-service-api-key': KEY })).status).toBe(200);
    // The local info route is for the app's demo mode, not the public API: no key needed.
    expect((await get(s.url + '/_local/info')).status).toBe(200);
  });

  it('refuses requireKey without any key configured', async () => {
    await expect(serve({ requireKey: true })).rejects.toThrow('Invalid service option: requireKey: requireKey needs at least one API key.');
  });
});

describe('request log', () => {
  it('logs one line per request without ever writing the key', async () => {
    const lines: string[] = [];
    const s = await serve({ clock: new ManualClock(), apiKeys: [KEY], logRequests: true, log: (l) => lines.push(l) });
    await get(s.url + LIST, { 'x-service-api-key': KEY });
    await get(s.url + LIST, { 'x-service-api-key': 'wrong-key-123456' });
    await get(s.url + '/v1/nope');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^GET \/v1\/teleporter\/messages 200 \d+\.\dms key$/);
    expect(lines[1]).toMatch(/^GET \/v1\/teleporter\/messages 401 \d+\.\dms anonymous$/);
    expect(lines[2]).toMatch(/^GET \/v1\/nope 404 /);
    expect(lines.join('\n')).not.toContain(KEY);
    expect(lines.join('\n')).not.toContain('wrong-key-123456');
  });
});

const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';

describe('service options', () => {
  it.each([
    [{ port: 70000 }, 'Invalid service option: port: port must be 0..65535.'],
    [{ rate: -1 }, 'Invalid service option: rate: rate must not be negative.'],
    [{ speed: 0 }, 'Invalid service option: speed: speed must be greater than 0.'],
    [{ apiKeys: ['has space'] }, 'Invalid service option: apiKeys.0: an API key must be printable ASCII without spaces.'],
    [{ faults: 'slow:2' }, 'Invalid service option: faults: Fault rate slow must be a probability between 0 and 1 (got "2").'],
    [{ seed: 1.5 }, 'Invalid service option: seed: seed must be a whole number.'],
    // Each world checks its own options; a name neither the server nor a world knows is refused before either starts.
    [{ relayers: { relayers: [] } }, 'Invalid service option: relayers.relayers: Too small'],
    [{ speeed: 2 }, 'Invalid service option: speeed: not an option of the service.'],
    [{ ownNodes: { chains: [] } }, 'Invalid service option: ownNodes.chains: Add at least one chain'],
    [{ ownNodes: { chains: [{ rpcUrl: 'http://127.0.0.1:9', blockchainId: C_CHAIN }] }, history: 2 }, 'preload and history must be 0.'],
  ])('rejects %j', async (options, message) => {
    await expect(serve(options as SimulatedServiceOptions)).rejects.toThrow(message);
  });
});

describe('rate limits', () => {
  it('sends the IETF draft RateLimit headers on every response', async () => {
    const s = await serve({ clock: new ManualClock(), apiKeys: [KEY], rateLimitPerMinute: { keyed: 5, anonymous: 3 } });
    const ok = await get(s.url + LIST, { 'x-service-api-key': KEY });
    expect(Object.fromEntries(['ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].map((h) => [h, ok.headers.get(h)]))).toEqual({
      'ratelimit-policy': '100;w=60',
      'ratelimit-limit': '100',
      'ratelimit-remaining': '80',
      'ratelimit-reset': '60',
    });
    const notFound = await get(s.url + '/v1/nope');
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('ratelimit-policy')).toBe('60;w=60');
    expect(notFound.headers.get('ratelimit-remaining')).toBe('40');
    const badRequest = await get(s.url + '/v1/teleporter/messages?pageSize=0');
    expect(badRequest.status).toBe(400);
    expect(badRequest.headers.get('ratelimit-remaining')).toBe('20');
  });

  it('answers 429 with Retry-After once the anonymous limit is spent, and frees slots as the window slides', async () => {
    const clock = new ManualClock();
    const s = await serve({ clock, rateLimitPerMinute: { keyed: 10, anonymous: 2 } });
    expect((await get(s.url + LIST)).status).toBe(200); // t = 0
    await clock.advance(20_000);
    expect((await get(s.url + LIST)).status).toBe(200); // t = 20 s
    const limited = await get(s.url + LIST);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('40'); // the t = 0 request leaves the window at 60 s
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-reset')).toBe('40');
    expect(limited.json).toEqual({
      message:
        'Too many requests: the limit is 40 compute units per minute for anonymous callers (send an x-glacier-api-key for a higher limit); this call costs 20; retry after 40 s.',
      statusCode: 429,
      error: 'Too Many Requests',
    });
    await clock.advance(39_000);
    expect((await get(s.url + LIST)).status).toBe(429); // refused requests are not counted, still 1 s to go
    await clock.advance(1_000);
    const again = await get(s.url + LIST); // t = 60 s: one slot free
    expect(again.status).toBe(200);
    expect(again.headers.get('ratelimit-remaining')).toBe('0');
    expect(again.headers.get('ratelimit-reset')).toBe('20');
    expect((await get(s.url + LIST)).status).toBe(429);
  });

  it('counts each key separately from the others and from anonymous callers', async () => {
    const clock = new ManualClock();
    const s = await serve({ clock, apiKeys: [KEY, OTHER_KEY], rateLimitPerMinute: { keyed: 3, anonymous: 1 } });
    expect((await get(s.url + LIST)).status).toBe(200);
    expect((await get(s.url + LIST)).status).toBe(429);
    for (let i = 0; i < 3; i++) expect((await get(s.url + LIST, { 'x-service-api-key': KEY })).status).toBe(200);
    const keyed = await get(s.url + LIST, { 'x-service-api-key': KEY });
    expect(keyed.status).toBe(429);
    expect(keyed.json).toMatchObject({
      message: 'Too many requests: the limit is 60 compute units per minute for this API key; this call costs 20; retry after 60 s.',
    });
    expect((await get(s.url + LIST, { 'x-service-api-key': OTHER_KEY })).status).toBe(200);
  });

  it('defaults to 600 requests (12,000 CU) per minute with a key and 120 (2,400 CU) without', async () => {
    const s = await serve({ clock: new ManualClock(), apiKeys: [KEY], rateLimitPerMinute: undefined });
    expect((await get(s.url + LIST)).headers.get('ratelimit-policy')).toBe('2400;w=60');
    expect((await get(s.url + LIST, { 'x-service-api-key': KEY })).headers.get('ratelimit-policy')).toBe('12000;w=60');
  });
});
