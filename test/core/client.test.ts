import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { RequestBudget } from '../../src/core/data-api/budget';
import { DataApiClient } from '../../src/core/data-api/client';
import { PoolRegistry } from '../../src/core/data-api/pools';
import { createLogger } from '../../src/core/log/logger';
import { apiRecord, randomAddress } from './helpers';
import { pump, scriptedServer } from './http-helpers';

const pools = new PoolRegistry();
afterEach(async () => {
  await pools.close();
});

function client(url: string, clock: ManualClock, opts: { key?: string; header?: string; budget?: number } = {}) {
  const budget = new RequestBudget(clock, opts.budget ?? 1000);
  const c = new DataApiClient({
    baseUrl: url,
    network: 'fuji',
    pool: pools.get(url),
    budget,
    clock,
    logger: createLogger(),
    apiKey: () => opts.key ?? null,
    apiKeyHeader: opts.header ?? 'x-service-api-key',
    random: () => 1,
  });
  return { c, budget };
}

describe('Data API client over real HTTP', () => {
  it('sends every list parameter, the network, and the key under the configured header', async () => {
    const clock = new ManualClock();
    const srv = await scriptedServer(clock, () => ({ status: 200, body: { messages: [apiRecord({ status: 'pending' })], nextPageToken: 'n2' } }));
    const from = randomAddress();
    const { c } = client(srv.url, clock, { key: 'k-123456789', header: 'x-glacier-api-key' });
    const r = await c.listMessages({ pageSize: 25, pageToken: 'tok', sourceBlockchainId: '43114', destinationBlockchainId: '4337', from, to: from });
    expect(r.ok && r.value.messages.length).toBe(1);
    expect(r.ok && r.value.nextPageToken).toBe('n2');
    const req = srv.requests[0]!;
    expect(req.url.pathname).toBe('/v1/teleporter/messages');
    expect(Object.fromEntries(req.url.searchParams)).toEqual({
      pageToken: 'tok',
      pageSize: '25',
      sourceBlockchainId: '43114',
      destinationBlockchainId: '4337',
      from,
      to: from,
      network: 'fuji',
    });
    expect(req.headers['x-glacier-api-key']).toBe('k-123456789');
    expect(req.headers['x-service-api-key']).toBeUndefined();
    await c.listAddressMessages(from, { pageSize: 5 });
    expect(srv.requests[1]!.url.pathname).toBe(`/v1/teleporter/addresses/${from}/messages`);
    expect(Object.fromEntries(srv.requests[1]!.url.searchParams)).toEqual({ pageSize: '5', network: 'fuji' });
    await srv.close();
  });

  it('keeps unknown fields and statuses, counts records without an ID, and walks pages', async () => {
    const clock = new ManualClock();
    const srv = await scriptedServer(clock, (req) => {
      const token = req.url.searchParams.get('pageToken');
      if (!token)
        return {
          status: 200,
          body: { messages: [apiRecord({ status: 'teleported', extra: { shiny: true } }), { status: 'pending' }], nextPageToken: 'p2', extraTop: 1 },
        };
      return { status: 200, body: { messages: [apiRecord({ status: 'delivered' })], nextPageToken: '' } };
    });
    const { c } = client(srv.url, clock);
    const pages = [await c.listMessages({})];
    const next = pages[0]!.ok ? pages[0]!.value.nextPageToken : undefined;
    expect(next).toBe('p2');
    pages.push(await c.listMessages({ pageToken: next }));
    expect(pages[1]!.ok && pages[1]!.value.nextPageToken).toBeFalsy();
    const first = pages[0]!;
    expect(first.ok && first.value.rejected).toBe(1);
    const m = first.ok ? first.value.messages[0] : undefined;
    expect(m?.status).toBe('unknown');
    expect(m && m.status === 'unknown' && m.raw.shiny).toBe(true);
    expect(pages[1]!.ok && pages[1]!.value.messages[0]?.status).toBe('delivered');
    await srv.close();
  });

  it('honours Retry-After on 429: the next request waits until the time the server asked for', async () => {
    const clock = new ManualClock();
    const srv = await scriptedServer(clock, (_r, n) =>
      n === 1
        ? { status: 429, headers: { 'retry-after': '7' }, body: { message: 'Too many', statusCode: 429, error: 'Too Many Requests' } }
        : { status: 200, body: { messages: [] } },
    );
    const { c, budget } = client(srv.url, clock);
    const t0 = clock.now();
    const r = await pump(clock, c.listMessages({}), 250);
    expect(r.ok).toBe(true);
    expect(srv.requests).toHaveLength(2);
    expect(srv.requests[1]!.at - srv.requests[0]!.at).toBeGreaterThanOrEqual(7000);
    expect(srv.requests[1]!.at - t0).toBeLessThan(7000 + 1000);
    expect(budget.blockedUntilTime()).toBeNull();
    await srv.close();
  });

  it('returns rate_limited with retryAt when the server asks for a long wait, and blocks the budget', async () => {
    const clock = new ManualClock();
    const srv = await scriptedServer(clock, () => ({
      status: 429,
      headers: { 'retry-after': '120' },
      body: { message: 'slow down', statusCode: 429, error: 'Too Many Requests' },
    }));
    const { c, budget } = client(srv.url, clock);
    const r = await c.listMessages({});
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('rate_limited');
      expect(r.error.retryAt).toBe(clock.now() + 120_000);
      expect(r.error.message).toMatch(/API key|poll interval/);
    }
    expect(srv.requests).toHaveLength(1);
    expect(budget.available()).toBe(0);
    await srv.close();
  });

  it('backs off exponentially on 5xx and resets, then succeeds', async () => {
    const clock = new ManualClock();
    const srv = await scriptedServer(clock, (_r, n) =>
      n === 1
        ? { status: 503, body: { message: 'down', statusCode: 503, error: 'Service Unavailable' } }
        : n === 2
          ? 'reset'
          : { status: 200, body: { messages: [] } },
    );
    const { c } = client(srv.url, clock);
    const r = await pump(clock, c.listMessages({}), 50);
    expect(r.ok).toBe(true);
    expect(srv.requests).toHaveLength(3);
    const gap1 = srv.requests[1]!.at - srv.requests[0]!.at;
    const gap2 = srv.requests[2]!.at - srv.requests[1]!.at;
    expect(gap1).toBeGreaterThanOrEqual(500);
    expect(gap2).toBeGreaterThanOrEqual(1000);
    expect(gap2).toBeGreaterThan(gap1);
    await srv.close();
  });

  it('does not retry other 4xx, and says what to do', async () => {
    const clock = new ManualClock();
    const srv = await scriptedServer(clock, (req) =>
      req.url.pathname.includes('addresses')
        ? { status: 401, body: { message: 'Invalid API key', statusCode: 401, error: 'Unauthorized' } }
        : { status: 400, body: { message: ['pageSize must not be greater than 100'], statusCode: 400, error: 'Bad Request' } },
    );
    const { c } = client(srv.url, clock, { key: 'wrong-key-1234' });
    const bad = await c.listMessages({ pageSize: 100 });
    expect(!bad.ok && bad.error.kind).toBe('bad_request');
    expect(!bad.ok && bad.error.message).toContain('pageSize must not be greater than 100');
    const unauth = await c.listAddressMessages(randomAddress());
    expect(!unauth.ok && unauth.error.kind).toBe('unauthorized');
    expect(!unauth.ok && unauth.error.message).toMatch(/Settings/);
    expect(srv.requests).toHaveLength(2);
    await srv.close();
  });

  it('reports malformed bodies as invalid_response after retrying, and a dead port as network', async () => {
    const clock = new ManualClock();
    const srv = await scriptedServer(clock, () => ({ status: 200, body: '{"messages": [trunc' }));
    const { c } = client(srv.url, clock);
    const r = await pump(clock, c.listMessages({}), 200);
    expect(!r.ok && r.error.kind).toBe('invalid_response');
    expect(srv.requests).toHaveLength(4); // first try + 3 retries
    const url = srv.url;
    await srv.close();
    const dead = client(url, clock).c;
    const n = await pump(clock, dead.listMessages({}), 200);
    expect(!n.ok && n.error.kind).toBe('network');
    expect(!n.ok && n.error.message).toMatch(/Cannot reach 127\.0\.0\.1/);
  });

  it('narrows the budget to the server ratelimit headers', async () => {
    const clock = new ManualClock();
    const srv = await scriptedServer(clock, () => ({
      status: 200,
      // In compute units, as the public API sends them: 600 CU a minute (30 list calls), 40 left (2 calls).
      headers: { 'ratelimit-limit': '600', 'ratelimit-remaining': '40', 'ratelimit-reset': '40' },
      body: { messages: [] },
    }));
    const { c, budget } = client(srv.url, clock, { budget: 100 });
    await c.listMessages({});
    expect(budget.perMinute()).toBe(30);
    expect(budget.available()).toBe(2);
    await clock.advance(41_000);
    expect(budget.available()).toBe(29);
    await srv.close();
  });
});
