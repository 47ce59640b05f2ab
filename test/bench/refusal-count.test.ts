/**
 * The refusals judgeSpend takes, counted from the real service's request log: each 429 to its caller
 * (no key, or a key), never an answered call, and the service's other log lines passed on.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { RefusalCount } from '../../bench/refusal-count';
import { get, serve } from '../local-data-api/helpers';

describe('RefusalCount', () => {
  it("counts the service's 429 answers per caller kind", async () => {
    const other: string[] = [];
    const refusals = new RefusalCount((l) => other.push(l));
    const s = await serve({
      clock: new ManualClock(),
      apiKeys: ['bench-key-123456'],
      computeUnits: { keyed: { cuPerMinute: 20, cuPerDay: null }, anonymous: { cuPerMinute: 40, cuPerDay: null } },
      rateLimitPerMinute: undefined,
      logRequests: true,
      log: refusals.onLine,
    });
    const list = `${s.url}/v1/teleporter/messages?pageSize=1`;
    const key = { 'x-glacier-api-key': 'bench-key-123456' };
    const statuses = [(await get(list)).status, (await get(list)).status, (await get(list)).status, (await get(list)).status];
    statuses.push((await get(list, key)).status, (await get(list, key)).status);
    expect(statuses).toEqual([200, 200, 429, 429, 200, 429]);
    expect(refusals.of('anonymous')).toBe(2);
    expect(refusals.of('bench-key-123456')).toBe(1);
    // Lines that are not a request's (the store's, the start's) go on, not counted.
    refusals.onLine('store file cached: 64 MB read in 1.0 s');
    expect(other).toContain('store file cached: 64 MB read in 1.0 s');
  });
});
