/** onCharge: each request the rate limit counts is told, with its CU and caller, before it is answered; refused ones are not (onRefused tells those). */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { get, serve } from './helpers';

describe('onCharge', () => {
  it('tells the CU the limit counted, its path, per key or anonymous caller; a refused call only to onRefused', async () => {
    const charges: { caller: string; cu: number; path: string; key?: string }[] = [];
    const refused: typeof charges = [];
    const s = await serve({
      clock: new ManualClock(),
      preload: 5,
      apiKeys: ['bench-key-123456'],
      computeUnits: { keyed: { cuPerMinute: 60, cuPerDay: null }, anonymous: { cuPerMinute: 40, cuPerDay: 1_000 } },
      rateLimitPerMinute: undefined,
      onCharge: (c) => charges.push(c),
      onRefused: (c) => refused.push(c),
    });
    const list = `${s.url}/v1/teleporter/messages?pageSize=2`;
    expect((await get(list)).status).toBe(200);
    expect((await get(list, { 'x-glacier-api-key': 'bench-key-123456' })).status).toBe(200);
    expect((await get(list)).status).toBe(200);
    // The third anonymous call would pass the minute's 40 CU: refused, not counted.
    expect((await get(list)).status).toBe(429);
    const path = '/v1/teleporter/messages';
    expect(charges).toEqual([
      { caller: 'anonymous', cu: 20, path },
      { caller: 'key', cu: 20, path, key: 'bench-key-123456' },
      { caller: 'anonymous', cu: 20, path },
    ]);
    expect(refused).toEqual([{ caller: 'anonymous', cu: 20, path }]);
    // The local info route is not an API call: never counted.
    await get(`${s.url}/_local/info`);
    expect(charges).toHaveLength(3);
  });

  it('is called before the answer, so a world moved in it shows in that answer', async () => {
    const clock = new ManualClock();
    let s: Awaited<ReturnType<typeof serve>> | null = null;
    s = await serve({ clock, onCharge: () => void s?.simulator.send({}) });
    const page = (await get(`${s.url}/v1/teleporter/messages?pageSize=10`)).json as { messages: unknown[] };
    expect(page.messages).toHaveLength(1);
  });
});
