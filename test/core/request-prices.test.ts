import { describe, expect, it } from 'vitest';
import { isDue, planRechecks, preferFirehose } from '../../src/core/poller/request-prices';

describe('request planning', () => {
  it('prefers one firehose over many addresses, and the address operation for a few', () => {
    expect(preferFirehose(null, 10, 2)).toBe(false);
    expect(preferFirehose(null, 10, 50)).toBe(true);
    expect(preferFirehose(20, 10, 1000)).toBe(true); // 3 pages beat 1,000 requests
    expect(preferFirehose(20, 10, 3)).toBe(false); // 3 pages do not beat 3 requests
  });

  it('prices each watched list at its own density: a few addresses carrying most of the traffic cost more than the firehose', () => {
    // 20 msg/s, 30 s: the firehose's news is 7 pages; three lists of 10 msg/s each are 4 pages each.
    expect(preferFirehose(20, 30, 3, [10, 10, 10])).toBe(true);
    // Two lists as busy as the whole list: 2 × 7 pages.
    expect(preferFirehose(20, 30, 2, [20, 20])).toBe(true);
    // Quiet lists stay a page each, cheaper than 7.
    expect(preferFirehose(20, 30, 3, [0.1, 0.2, 0])).toBe(false);
    expect(preferFirehose(20, 30, 2, [3, 3])).toBe(false);
  });

  it('covers recent messages by paging the firehose deeper and old ones by their address', () => {
    const now = 1_000_000;
    const cands = [
      { messageId: 'a', ts: now - 20, address: 'A' },
      { messageId: 'b', ts: now - 40, address: 'B' },
      { messageId: 'c', ts: now - 3000, address: 'C' }, // 600 pages deep at 20 msg/s
    ];
    // Busy addresses: 10 pages each to reach their message.
    const plan = planRechecks(cands, { ratePerSec: 20, nowSec: now, headPages: 1, addressPages: () => 10, maxDepthPages: 60 });
    expect(plan.depthTs).toBe(now - 40);
    expect([...plan.byAddress.keys()]).toEqual(['C']);
    expect(plan.cost).toBe(8 + 10);
    // Quiet addresses (one page each) are cheaper than paging at all.
    expect(planRechecks(cands, { ratePerSec: 20, nowSec: now, headPages: 1, addressPages: () => 1, maxDepthPages: 60 })).toMatchObject({
      depthTs: null,
      cost: 3,
    });
  });

  it('asks addresses when that is cheaper than paging, and never plans beyond the page cap', () => {
    const now = 1_000_000;
    const cands = [{ messageId: 'x', ts: now - 600, address: 'X' }];
    expect(planRechecks(cands, { ratePerSec: 20, nowSec: now, headPages: 1, addressPages: () => 1, maxDepthPages: 60 }).depthTs).toBeNull();
    // A feed-only message (no address) too deep to reach is left for later, not planned.
    const deep = planRechecks([{ messageId: 'f', ts: now - 100_000, address: null }], {
      ratePerSec: 20,
      nowSec: now,
      headPages: 1,
      addressPages: () => 1,
      maxDepthPages: 60,
    });
    expect(deep).toEqual({ depthTs: null, byAddress: new Map(), byId: [], cost: 0 });
  });

  it('with the single-message operation, asks by ID when an address has fewer due messages than pages', () => {
    const now = 1_000_000;
    const cands = [
      { messageId: 'a', ts: now - 20, address: 'A' },
      { messageId: 'c1', ts: now - 3000, address: 'C' },
      { messageId: 'c2', ts: now - 3100, address: 'C' },
      { messageId: 'd1', ts: now - 3000, address: 'D' },
      { messageId: 'd2', ts: now - 3050, address: 'D' },
      { messageId: 'd3', ts: now - 3060, address: 'D' },
      { messageId: 'f', ts: now - 100_000, address: null }, // a feed's: too deep to page to, one request by ID
    ];
    // C: 10 pages vs 2 IDs -> by ID; D: 2 pages vs 3 IDs -> its address.
    const plan = planRechecks(cands, { ratePerSec: 20, nowSec: now, headPages: 1, addressPages: (a) => (a === 'D' ? 2 : 10), maxDepthPages: 60, byId: true });
    // 'a' is 20 s old: 4 pages below the head at 20 msg/s, so one request by ID beats them too.
    expect(plan.depthTs).toBeNull();
    expect(plan.byId.map((c) => c.messageId).sort()).toEqual(['a', 'c1', 'c2', 'f']);
    expect([...plan.byAddress.keys()]).toEqual(['D']);
    expect(plan.cost).toBe(1 + 2 + 2 + 1);
    // Without it, the same candidates page the firehose and ask every address (f waits: unreachable).
    const old = planRechecks(cands, { ratePerSec: 20, nowSec: now, headPages: 1, addressPages: (a) => (a === 'D' ? 2 : 10), maxDepthPages: 60 });
    expect(old.byId).toEqual([]);
    expect([...old.byAddress.keys()].sort()).toEqual(['A', 'C', 'D'].filter((a) => old.depthTs === null || a !== 'A'));
  });

  it('in echo mode asks by ID the newest and the longest unread by turns, so a budget that cuts every cycle short starves neither', () => {
    const now = 1_700_000_000;
    const nowMs = now * 1000;
    // Route messages (no address), all too deep to page to: each is one request by ID. Newest first alone
    // would ask the fresh ones every cycle and the old ones never while only two requests fit a cycle;
    // longest unread first alone, the reverse.
    const cands = [
      { messageId: 'old', ts: now - 3000, address: null, seenAt: nowMs - 40 * 60_000 },
      { messageId: 'fresh1', ts: now - 90, address: null, seenAt: nowMs - 30_000 },
      { messageId: 'fresh2', ts: now - 80, address: null, seenAt: nowMs - 30_000 },
      { messageId: 'mid', ts: now - 900, address: null, seenAt: nowMs - 5 * 60_000 },
      { messageId: 'older', ts: now - 2000, address: null, seenAt: nowMs - 20 * 60_000 },
    ];
    const plan = planRechecks(cands, { ratePerSec: 20, nowSec: now, headPages: 1, addressPages: () => 1, maxDepthPages: 1, byId: true, fair: true });
    expect(plan.byId.map((c) => c.messageId)).toEqual(['fresh2', 'old', 'fresh1', 'older', 'mid']);
    // Out of echo mode (fair unset) newest first, as the budget rarely cuts them short there.
    const plain = planRechecks(cands, { ratePerSec: 20, nowSec: now, headPages: 1, addressPages: () => 1, maxDepthPages: 1, byId: true });
    expect(plain.byId.map((c) => c.messageId)).toEqual(['fresh2', 'fresh1', 'mid', 'older', 'old']);
  });

  it('re-checks fresh messages every cycle and old ones on a slower cadence', () => {
    const interval = 10_000;
    expect(isDue(60_000, 10_000, interval)).toBe(true);
    expect(isDue(20 * 60_000, 60_000, interval)).toBe(false); // 20 min old: every 5 min
    expect(isDue(20 * 60_000, 5 * 60_000, interval)).toBe(true);
    expect(isDue(10 * 3600_000, 50 * 60_000, interval)).toBe(false);
    expect(isDue(10 * 3600_000, 60 * 60_000, interval)).toBe(true); // capped at an hour
    // Within the stuck threshold too, a quarter of its age (spaced out by age, issue 27): 20 min old, seen 50 s ago, is not due.
    expect(isDue(20 * 60_000, 50_000, interval, 30 * 60_000)).toBe(false);
    expect(isDue(20 * 60_000, 5 * 60_000, interval, 30 * 60_000)).toBe(true);
    // In the interval before the threshold, once more (a delivery already listed is seen before `stuck`), then not again.
    expect(isDue(29.9 * 60_000, 2 * 60_000, interval, 30 * 60_000)).toBe(true);
    expect(isDue(29.9 * 60_000, 3_000, interval, 30 * 60_000)).toBe(false);
    expect(isDue(40 * 60_000, 50_000, interval, 30 * 60_000)).toBe(false); // past it: the slow cadence
  });
});
