/** The planner with plain values: which requests one cycle on one network makes. */
import { describe, expect, it } from 'vitest';
import {
  BASELINE_MAX_PAGES,
  discoveryMode,
  FIREHOSE_BASELINE_MIN,
  MAX_PAGES_PER_SCAN,
  planFollowUps,
  planNetwork,
  type DueMessage,
  type NetworkPlanInput,
} from '../../src/core/poller/planner';

const NOW_MS = 1_000_000_000;
const NOW = NOW_MS / 1000;
const live = (key: string) => ({ key, baselineDone: true });
const pending = (key: string) => ({ key, baselineDone: false });
const due = (messageId: string, ageSec: number, address: string | null, feeds: string[] = []): DueMessage => ({ messageId, ts: NOW - ageSec, address, feeds });

function input(o: Partial<NetworkPlanInput>): NetworkPlanInput {
  return { nowMs: NOW_MS, intervalMs: 10_000, head: null, ratePerSec: null, addresses: [], feeds: [], due: [], addressPages: new Map(), overlapSec: 20,
    trail: null,
    lastTrailAt: NOW_MS, // no trailing sweep due unless a test asks for one
    lastDiscoveryAt: null,
    ...o,
  };
}

describe('planNetwork', () => {
  it('plans nothing but the baselines while no watcher is live', () => {
    const plan = planNetwork(input({ addresses: [pending('A')], feeds: [{ ...pending('feed:1'), filter: { to: '0xb' } }] }));
    expect(plan.discovery).toBeNull();
    expect(plan.listBaseline).toBeNull();
    expect(plan.baselines).toEqual([
      { watcher: 'A', step: { source: { kind: 'address', address: 'A' }, maxPages: BASELINE_MAX_PAGES, baselineFor: ['A'], stop: { kind: 'while-open' } } },
      {
        watcher: 'feed:1',
        step: { source: { kind: 'feed', filter: { to: '0xb' } }, maxPages: BASELINE_MAX_PAGES, baselineFor: ['feed:1'], stop: { kind: 'while-open' } },
      },
    ]);
  });

  it('asks each live address and feed for a few watchers, each scan looking for its own due messages', () => {
    const feed = { ...live('feed:1'), filter: { destinationBlockchainId: 'X' } };
    // 50 msg/s: the firehose would cost 6 pages a cycle, more than asking these three.
    const plan = planNetwork(
      input({
        head: { ts: NOW - 10, at: NOW_MS - 10_000 },
        ratePerSec: 50,
        addresses: [live('A'), live('B')],
        feeds: [feed],
        due: [due('a1', 30, 'A'), due('a2', 90, 'A'), due('f1', 60, null, ['feed:1'])],
      }),
    );
    expect(plan.discovery).toEqual({
      mode: 'per-address',
      scans: [
        {
          source: { kind: 'address', address: 'A' },
          maxPages: MAX_PAGES_PER_SCAN,
          lookFor: ['a1', 'a2'],
          stop: { kind: 'found', need: ['a1', 'a2'], neededTs: NOW - 90, coverTs: null },
        },
        { source: { kind: 'address', address: 'B' }, maxPages: MAX_PAGES_PER_SCAN, lookFor: [], stop: { kind: 'found', need: [], neededTs: null, coverTs: null } },
        {
          source: { kind: 'feed', filter: { destinationBlockchainId: 'X' } },
          maxPages: MAX_PAGES_PER_SCAN,
          lookFor: ['f1'],
          stop: { kind: 'found', need: ['f1'], neededTs: NOW - 60, coverTs: null },
        },
      ],
      trailStartedAt: null,
    });
  });

  it('reads one firehose page to learn the rate when many addresses are live and nothing is known yet', () => {
    const addresses = ['A', 'B', 'C', 'D'].map(live);
    const plan = planNetwork(input({ addresses }));
    expect(plan.discovery?.mode).toBe('firehose');
    if (plan.discovery?.mode !== 'firehose') return;
    expect(plan.discovery.head).toEqual({
      source: { kind: 'firehose' },
      maxPages: MAX_PAGES_PER_SCAN,
      countNewerThan: null,
      lookFor: [],
      stop: { kind: 'past', ts: null, undated: 'stop' },
    });
  });

  it('pages the firehose past its cursor and as deep as the cheapest re-checks need, the rest by address or ID', () => {
    const addresses = Array.from({ length: 50 }, (_, k) => live(`A${k}`));
    const head = { ts: NOW - 5, at: NOW_MS - 10_000 };
    const recent = Array.from({ length: 10 }, (_, k) => due(`m${k}`, 30 + k, `B${k}`));
    const plan = planNetwork(
      input({
        addresses,
        head,
        ratePerSec: 20,
        due: [due('young', 10, 'A1'), ...recent, due('old1', 3000, 'A2'), due('old2', 3100, 'A3'), due('old3', 3050, 'A3'), due('old4', 3060, 'A3')],
        // Each recent one costs a request by ID; A2 is busy (10 pages down to its message), A3 quiet (2 pages for its three).
        addressPages: new Map([['A2', 10], ['A3', 2], ...recent.map((m) => [m.address as string, 5] as const)]),
      }),
    );
    if (plan.discovery?.mode !== 'firehose') throw new Error('expected the firehose');
    const { head: step, rechecks } = plan.discovery;
    // 20 msg/s over 10 s: the head costs 3 pages and reaches 'young'; 6 more reach the ten recent ones
    // (cheaper than 10 by ID); the old ones are 600 pages down, past the page cap.
    expect(rechecks.depthTs).toBe(NOW - 39);
    expect(step.stop).toEqual({ kind: 'past', ts: NOW - 39, undated: 'stop' });
    expect(step.countNewerThan).toBe(head.ts);
    expect(step.lookFor).toHaveLength(15);
    expect(rechecks.byId.map((c) => c.messageId)).toEqual(['old1']);
    expect([...rechecks.byAddress.keys()]).toEqual(['A3']);
    expect(rechecks.cost).toBe(6 + 1 + 2);
  });

  it('takes many baselines through one pass over the list (two hours back), and feeds one by one', () => {
    const many = Array.from({ length: FIREHOSE_BASELINE_MIN }, (_, k) => pending(`P${k}`));
    const plan = planNetwork(input({ addresses: many, feeds: [{ ...pending('feed:9'), filter: { from: '0xa' } }] }));
    expect(plan.listBaseline?.watchers).toEqual(many.map((w) => w.key));
    expect(plan.listBaseline?.step).toEqual({
      source: { kind: 'firehose' },
      maxPages: FIREHOSE_BASELINE_MIN * BASELINE_MAX_PAGES,
      baselineFor: many.map((w) => w.key),
      stop: { kind: 'past', ts: NOW - 7200, undated: 'continue' },
    });
    expect(plan.baselines.map((b) => b.watcher)).toEqual(['feed:9']);
    // One fewer: each address reads its own history.
    expect(planNetwork(input({ addresses: many.slice(1) })).baselines).toHaveLength(FIREHOSE_BASELINE_MIN - 1);
  });

  it('keeps to the address operation while one firehose costs more pages than the live watchers', () => {
    const addresses = ['A', 'B', 'C', 'D'].map(live);
    const head = { ts: NOW - 10, at: NOW_MS - 10_000 };
    expect(discoveryMode(input({ addresses, head, ratePerSec: 50 }))).toBe('per-address'); // 6 pages > 4 addresses
    expect(discoveryMode(input({ addresses, head, ratePerSec: 5 }))).toBe('firehose'); // 1 page
    expect(discoveryMode(input({ addresses: addresses.map((a) => ({ ...a, baselineDone: false })) }))).toBeNull();
  });
});

describe('planFollowUps', () => {
  const addresses = Array.from({ length: 10 }, (_, k) => live(`A${k}`));
  const near = [100, 101, 102, 103].map((age, k) => due(`near${k}`, age, `A${k}`));
  // 1 msg/s: one page a cycle; paging down to 'orphan' (300 s, 4 pages) beats asking the six above it by ID.
  const plan = planNetwork(
    input({
      addresses,
      head: { ts: NOW - 10, at: NOW_MS - 10_000 },
      ratePerSec: 1,
      due: [...near, due('far', 250, 'A5'), due('orphan', 300, null), due('deep', 400, 'A6')],
      addressPages: new Map([...near.map((m) => [m.address as string, 5] as const), ['A5', 5], ['A6', 5]]),
    }),
  );
  if (plan.discovery?.mode !== 'firehose') throw new Error('expected the firehose');
  const d = plan.discovery;

  it('drops what the head scan saw and asks by ID what it planned by ID', () => {
    expect(d.rechecks.depthTs).toBe(NOW - 300);
    expect(d.rechecks.byId.map((c) => c.messageId)).toEqual(['deep']);
    const reached = new Set([...near.map((m) => m.messageId), 'far', 'orphan']);
    expect(planFollowUps(d, { seen: reached, oldestTs: NOW - 310, exhausted: false })).toEqual({ scans: [], byId: ['deep'] });
    expect(planFollowUps(d, { seen: new Set([...reached, 'deep']), oldestTs: NOW - 410, exhausted: false })).toEqual({ scans: [], byId: [] });
  });

  it('sends what the head scan fell short of to its address, looking only for those', () => {
    // The rate was off: the scan stopped at 200 s, so 'far' was not reached (the orphan has no address: it waits).
    const short = planFollowUps(d, { seen: new Set(near.map((m) => m.messageId)), oldestTs: NOW - 200, exhausted: false });
    expect(short.scans).toContainEqual({
      source: { kind: 'address', address: 'A5' },
      maxPages: MAX_PAGES_PER_SCAN,
      lookFor: ['far'],
      stop: { kind: 'found', need: ['far'], neededTs: NOW - 250, coverTs: null },
    });
    expect(short.scans.flatMap((s) => s.lookFor)).not.toContain('orphan');
    expect(short.byId).toEqual(['deep']);
    // The list ended (nothing older exists): nothing to chase.
    expect(planFollowUps(d, { seen: new Set(near.map((m) => m.messageId)), oldestTs: NOW - 200, exhausted: true }).scans).toEqual([]);
    // The plan itself is left as it was.
    expect(d.rechecks.byAddress.size).toBe(0);
  });
});
