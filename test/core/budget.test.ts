/**
 * Rate-limit messages name the real cause (the server's 429 with its wait, the server's announced
 * window, or the local budget), and a call queued behind the budget ends with a clear error instead
 * of waiting forever. Time is a manual clock; the 429 comes from a real HTTP server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { MonitorError } from '../../src/shared/errors';
import { RequestBudget } from '../../src/core/data-api/budget';
import { DataApiClient } from '../../src/core/data-api/client';
import { PoolRegistry } from '../../src/core/data-api/pools';
import { createLogger } from '../../src/core/log/logger';
import { CycleBudget } from '../../src/core/poller/scan';
import { scriptedServer } from './http-helpers';

const pools = new PoolRegistry();
afterEach(() => pools.close());

describe('request budget: causes and queue limits', () => {
  it("after the server's 429 the shortfall names the 429 and its wait, not the local budget (93 of 600 used)", async () => {
    const clock = new ManualClock();
    const budget = new RequestBudget(clock, 600);
    for (let i = 0; i < 93; i++) await budget.acquire();
    budget.blockUntil(clock.now() + 42_000);
    const why = budget.shortfall();
    expect(why).toMatchObject({ kind: 'rate_limited', retryAt: clock.now() + 42_000 });
    expect(why.message).toContain('HTTP 429');
    expect(why.message).toContain('42 s');
    expect(why.message).not.toMatch(/local request budget/);
    // The poll cycle reports exactly that when it stops for want of requests.
    const cycle = new CycleBudget(0, () => budget.shortfall());
    expect(cycle.take()).toBe(false);
    expect(cycle.why().message).toContain('HTTP 429');
  });

  it("names the server's announced window when it says 0 remaining", () => {
    const clock = new ManualClock();
    const budget = new RequestBudget(clock, 600);
    budget.observeHeaders((n) => ({ 'ratelimit-limit': '100', 'ratelimit-remaining': '0', 'ratelimit-reset': '17' })[n]);
    expect(budget.shortfall().message).toMatch(/server's rate limit for this window is used up.*17 s/);
  });

  it('names the local budget, with the count, when that is what ran out', async () => {
    const clock = new ManualClock();
    const budget = new RequestBudget(clock, 5);
    for (let i = 0; i < 5; i++) await budget.acquire();
    const why = budget.shortfall();
    expect(why.message).toMatch(/minute's budget is used up: 100 of 100 CU in the last minute; polling continues in 60 s/);
    expect(why.retryAt).toBe(clock.now() + 60_000);
  });

  it('a call queued behind the budget ends with a clear error rather than waiting forever', async () => {
    const clock = new ManualClock();
    const budget = new RequestBudget(clock, 2, { maxQueueWaitMs: 90_000 });
    const calls = Array.from({ length: 8 }, () => budget.acquire());
    const settled = Promise.allSettled(calls);
    await clock.advance(200_000);
    const results = await settled;
    // 2 at once, 2 after the first minute, the rest would have to wait past 90 s.
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(4);
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as MonitorError);
    expect(failed).toHaveLength(4);
    for (const e of failed) {
      expect(e).toBeInstanceOf(MonitorError);
      expect(e.kind).toBe('rate_limited');
      expect(e.message).toMatch(/could not go out within 90 s.*minute's budget is used up/);
    }
  });

  it("the client's 429 error says how long the server asked to wait", async () => {
    const clock = new ManualClock();
    const srv = await scriptedServer(clock, () => ({
      status: 429,
      headers: { 'retry-after': '120' },
      body: { message: 'slow down', statusCode: 429, error: 'Too Many Requests' },
    }));
    const budget = new RequestBudget(clock, 600);
    const c = new DataApiClient({
      baseUrl: srv.url,
      network: 'fuji',
      pool: pools.get(srv.url),
      budget,
      clock,
      logger: createLogger(),
      apiKey: () => null,
      apiKeyHeader: 'x-service-api-key',
      random: () => 1,
    });
    const r = await c.listMessages({});
    expect(!r.ok && r.error.message).toMatch(/HTTP 429\)\. It asked to wait 120 s/);
    expect(budget.shortfall().message).toMatch(/HTTP 429.*120 s/);
    // A call made now is refused at once, naming the server's wait (not queued for two minutes).
    const next = await c.listMessages({});
    expect(!next.ok && next.error).toMatchObject({ kind: 'rate_limited' });
    expect(!next.ok && next.error.message).toMatch(/could not go out within 30 s.*HTTP 429/);
    expect(srv.requests).toHaveLength(1);
    await srv.close();
  });
});
