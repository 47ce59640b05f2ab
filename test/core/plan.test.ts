import { describe, expect, it } from 'vitest';
import { isDue, planRechecks, preferFirehose } from '../../src/core/poller/plan';

describe('request planning', () => {
  it('prefers one firehose over many addresses, and the address operation for a few', () => {
    expect(preferFirehose(null, 10, 2)).toBe(false);
    expect(preferFirehose(null, 10, 50)).toBe(true);
    expect(preferFirehose(20, 10, 1000)).toBe(true); // 3 pages beat 1,000 requests
    expect(preferFirehose(20, 10, 3)).toBe(false); // 3 pages do not beat 3 requests
  });

  it('covers recent messages by paging the firehose deeper and old ones by their address', () => {
    const now = 1_000_000;
    const cands = [
      { messageId: 'a', ts: now - 20, address: 'A' },
      { messageId: 'b', ts: now - 40, address: 'B' },
      { messageId: 'c', ts: now - 3000, address: 'C' }, // 600 pages deep at 20 msg/s
    ];
    // Busy addresses: 10 pages each to reach their message.
    const plan = planRechecks(cands, 20, now, 1, () => 10, 60);
    expect(plan.depthTs).toBe(now - 40);
    expect([...plan.byAddress.keys()]).toEqual(['C']);
    expect(plan.cost).toBe(8 + 10);
    // Quiet addresses (one page each) are cheaper than paging at all.
    expect(planRechecks(cands, 20, now, 1, () => 1, 60)).toMatchObject({ depthTs: null, cost: 3 });
  });

  it('asks addresses when that is cheaper than paging, and never plans beyond the page cap', () => {
    const now = 1_000_000;
    const cands = [{ messageId: 'x', ts: now - 600, address: 'X' }];
    expect(planRechecks(cands, 20, now, 1, () => 1, 60).depthTs).toBeNull();
    // A feed-only message (no address) too deep to reach is left for later, not planned.
    const deep = planRechecks([{ messageId: 'f', ts: now - 100_000, address: null }], 20, now, 1, () => 1, 60);
    expect(deep).toEqual({ depthTs: null, byAddress: new Map(), cost: 0 });
  });

  it('re-checks fresh messages every cycle and old ones on a slower cadence', () => {
    const interval = 10_000;
    expect(isDue(60_000, 10_000, interval)).toBe(true);
    expect(isDue(20 * 60_000, 60_000, interval)).toBe(false); // 20 min old: every 5 min
    expect(isDue(20 * 60_000, 5 * 60_000, interval)).toBe(true);
    expect(isDue(10 * 3600_000, 50 * 60_000, interval)).toBe(false);
    expect(isDue(10 * 3600_000, 60 * 60_000, interval)).toBe(true); // capped at an hour
  });
});
