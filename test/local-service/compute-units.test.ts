/**
 * The service counts compute units (CU) per operation per minute and per UTC day, as the public
 * Data API's rate-limit page says, and answers 429 with the public API's headers when either limit is
 * passed; the official SDK, as a client, still accepts its answers and reports its 429s as its own
 * TooManyRequests. Real HTTP on 127.0.0.1, time on a ManualClock.
 */
import { describe, expect, it } from 'vitest';
import * as errors from '@avalabs/avacloud-sdk/models/errors/index.js';
import { ManualClock } from '../../src/shared/clock';
import { PUBLIC_PLANS } from '../../src/local-service';
import { get, serve } from './helpers';
import { sdkFor } from './sdk-client';

const KEY = 'cu-test-key-0123456789';
const LIST = '/v1/icm/messages?pageSize=1&network=mainnet';
const START = Date.UTC(2026, 4, 5, 22, 0);
const MIDNIGHT = Date.UTC(2026, 4, 6);
const HEADERS = ['ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after'];
const headersOf = (h: Headers) => Object.fromEntries(HEADERS.map((n) => [n, h.get(n)]));

describe('CU per operation, per minute and per day', () => {
  it('the realistic profile: a caller without a key is on the unauthenticated plan, a key on Free, each call 20 CU', async () => {
    const s = await serve({ clock: new ManualClock(START), realistic: true, apiKeys: [KEY], rateLimitPerMinute: undefined, preload: 5 });
    const anonymous = await get(s.url + LIST);
    expect(anonymous.status).toBe(200);
    expect(headersOf(anonymous.headers)).toMatchObject({ 'ratelimit-policy': '6000;w=60', 'ratelimit-limit': '6000', 'ratelimit-remaining': '5980' });
    const keyed = await get(s.url + LIST, { 'x-glacier-api-key': KEY });
    expect(headersOf(keyed.headers)).toMatchObject({ 'ratelimit-policy': '8000;w=60', 'ratelimit-remaining': '7980' });
    // The single-message operation weighs 20 CU too (a 404 for an unknown ID still counts).
    const byId = await get(`${s.url}/v1/icm/messages/${'ab'.repeat(32)}`, { 'x-glacier-api-key': KEY });
    expect(byId.headers.get('ratelimit-remaining')).toBe('7960');
    expect(PUBLIC_PLANS.unauthenticated).toEqual({ cuPerMinute: 6000, cuPerDay: 1_200_000 });
  });

  it("the minute's limit in CU: the call that would pass it gets 429 with the public headers and retry-after", async () => {
    const clock = new ManualClock(START);
    const s = await serve({ clock, rateLimitPerMinute: undefined, computeUnits: { keyed: 'free', anonymous: { cuPerMinute: 60, cuPerDay: null } } });
    for (let i = 0; i < 3; i++) {
      expect((await get(s.url + LIST)).status).toBe(200);
      await clock.advance(10_000);
    }
    const limited = await get(s.url + LIST); // 30 s after the first: it leaves the window in 30 s
    expect(limited.status).toBe(429);
    expect(headersOf(limited.headers)).toEqual({
      'ratelimit-policy': '60;w=60',
      'ratelimit-limit': '60',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '30',
      'retry-after': '30',
    });
    expect(limited.json).toMatchObject({ statusCode: 429, error: 'Too Many Requests', message: expect.stringContaining('60 compute units per minute') });
    await clock.advance(30_000);
    expect((await get(s.url + LIST)).status).toBe(200);
  });

  it("the day's limit in CU: refused until 00:00 UTC with a day policy and retry-after to midnight, then counted afresh", async () => {
    const clock = new ManualClock(START);
    const s = await serve({ clock, rateLimitPerMinute: undefined, computeUnits: { keyed: 'free', anonymous: { cuPerMinute: 1000, cuPerDay: 100 } } });
    for (let i = 0; i < 5; i++) {
      expect((await get(s.url + LIST)).status).toBe(200);
      await clock.advance(61_000); // each minute fresh: only the day binds
    }
    const limited = await get(s.url + LIST);
    expect(limited.status).toBe(429);
    const toMidnight = String(Math.ceil((MIDNIGHT - clock.now()) / 1000));
    expect(headersOf(limited.headers)).toEqual({
      'ratelimit-policy': '100;w=86400',
      'ratelimit-limit': '100',
      'ratelimit-remaining': '0',
      'ratelimit-reset': toMidnight,
      'retry-after': toMidnight,
    });
    expect(limited.json).toMatchObject({ message: expect.stringContaining('100 compute units per day (it resets at 00:00 UTC)') });
    await clock.advance(MIDNIGHT - clock.now() - 1000);
    expect((await get(s.url + LIST)).status).toBe(429);
    await clock.advance(1000);
    const fresh = await get(s.url + LIST);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('ratelimit-policy')).toBe('1000;w=60');
  });

  it('the official SDK accepts answers carrying the CU headers, and reports both 429s as its TooManyRequests', async () => {
    const clock = new ManualClock(START);
    const s = await serve({
      clock,
      preload: 20,
      apiKeys: [KEY],
      rateLimitPerMinute: undefined,
      computeUnits: { keyed: { cuPerMinute: 40, cuPerDay: 100 }, anonymous: 'unauthenticated' },
    });
    const rig = sdkFor(s.url, KEY);
    const page = await rig.sdk.data.icm.list({ pageSize: 5, network: 'mainnet' }, rig.opts);
    expect(page.result.messages).toHaveLength(5);
    const one = await rig.sdk.data.teleporter.getTeleporterMessage({ messageId: page.result.messages[0]!.messageId }, rig.opts);
    expect(one.messageId).toBe(page.result.messages[0]!.messageId);
    const minute = rig.sdk.data.icm.list({ pageSize: 1 }, rig.opts);
    await expect(minute).rejects.toBeInstanceOf(errors.TooManyRequests);
    await expect(minute).rejects.toMatchObject({ statusCode: 429, data$: { message: expect.stringContaining('per minute') } });
    await clock.advance(61_000);
    await rig.sdk.data.icm.list({ pageSize: 1 }, rig.opts);
    await rig.sdk.data.icm.list({ pageSize: 1 }, rig.opts);
    await clock.advance(61_000);
    await rig.sdk.data.icm.list({ pageSize: 1 }, rig.opts); // 100 CU today
    const day = rig.sdk.data.icm.list({ pageSize: 1 }, rig.opts);
    await expect(day).rejects.toBeInstanceOf(errors.TooManyRequests);
    await expect(day).rejects.toMatchObject({ data$: { message: expect.stringContaining('per day') } });
  });
});
