/**
 * Issue 41: an answer the Data API client would have to read without end (a custom server streaming
 * forever, or announcing a gigabyte) is cut at its cap and said as an invalid response; the memory it
 * costs stays near the cap, and the same client reads the next, ordinary answer.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { RequestBudget } from '../../src/core/data-api/budget';
import { DataApiClient } from '../../src/core/data-api/client';
import { PoolRegistry } from '../../src/core/data-api/pools';
import { createLogger } from '../../src/core/log/logger';
import { apiRecord } from './helpers';

const pools = new PoolRegistry();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  await pools.close();
});

const CAP = 1_048_576;

/** A server whose list answers are endless (`endless`), announce 1 GB (`huge`), or are an ordinary page. */
async function server(): Promise<{ url: string; mode: { now: 'endless' | 'huge' | 'page' } }> {
  const mode = { now: 'page' as 'endless' | 'huge' | 'page' };
  const srv = createServer((_req, res) => {
    if (mode.now === 'page') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ messages: [apiRecord({})] }));
    if (mode.now === 'huge') return void res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1 << 30) }).write('{"messages":[');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"messages":["');
    const more = () => {
      if (!res.destroyed && res.write('ab'.repeat(32 * 1024))) setImmediate(more);
      else if (!res.destroyed) res.once('drain', more);
    };
    more();
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  closers.push(
    () =>
      new Promise<void>((r) => {
        srv.closeAllConnections();
        srv.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, mode };
}

describe('the Data API client and an answer without end', () => {
  it('cuts it at the cap, says so, and reads the next ordinary answer', async () => {
    const { url, mode } = await server();
    const clock = new ManualClock();
    const c = new DataApiClient({
      baseUrl: url,
      network: 'fuji',
      pool: pools.get(url),
      budget: new RequestBudget(clock, 1000),
      clock,
      logger: createLogger(),
      apiKey: () => null,
      apiKeyHeader: 'x-glacier-api-key',
      maxRetries: 0,
      maxAnswerBytes: CAP,
    });
    const before = process.memoryUsage().rss;
    for (const m of ['endless', 'huge'] as const) {
      mode.now = m;
      expect(await c.listMessages({})).toEqual({
        ok: false,
        error: { kind: 'invalid_response', message: expect.stringContaining('sent an answer larger than 1 MB: it was not read') },
      });
    }
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * CAP);
    mode.now = 'page';
    expect(await c.listMessages({})).toMatchObject({ ok: true, value: { rejected: 0 } });
  });
});
