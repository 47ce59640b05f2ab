/** The planner with plain values: which requests one cycle on one network makes. */
import { describe, expect, it } from 'vitest';
import { discoveryMode, planFollowUps, planNetwork } from '../../src/core/poller/planner';
import { listBaselinePages } from '../../src/core/poller/plan-baselines';
import { FIREHOSE_BASELINE_MIN_ADDRESSES, MAX_PAGES_PER_SCAN, NEED_MAX_PAGES } from '../../src/shared/policy';
import { type DueMessage, type NetworkPlanInput } from '../../src/core/poller/plan-types';
import { BASELINE_HORIZON_MS, FEED_BASELINE_HORIZON_MS, BASELINE_MAX_PAGES } from '../../src/shared/policy';
import { LatenessTracker } from '../../src/core/poller/late-records';
import { GUARANTEED_LATENESS_S, MAX_LATENESS_S, MAX_OVERLAP_S, MIN_OVERLAP_S, TRAIL_PERIOD_MS } from '../../src/shared/policy';
import { planInputAt } from '../support/plan-input';

const NOW_MS = 1_000_000_000;
const NOW = NOW_MS / 1000;
const live = (key: string) => ({ key, baselineDone: true });
const pending = (key: string) => ({ key, baselineDone: false });
const due = (messageId: string, ageSec: number, address: string | null, feeds: string[] = []): DueMessage => ({ messageId, ts: NOW - ageSec, address, feeds });

const input = (o: Partial<NetworkPlanInput>): NetworkPlanInput => planInputAt(NOW_MS, o);

describe('planNetwork', () => {
  it("while no watcher is live, reads each watcher's news from when it was added, then the baselines", () => {
    const added = NOW_MS - 60_000;
    const plan = planNetwork(input({ addresses: [{ ...pending('A'), since: added }], feeds: [{ ...pending('feed:1'), since: added, filter: { to: '0xb' } }] }));
    // News first: each list's top, down to when it was added (history is the baseline's).
    const news = { stop: { kind: 'past', ts: added / 1000, undated: 'stop' }, maxPages: MAX_PAGES_PER_SCAN };
    expect(plan.discovery).toEqual({
      mode: 'per-address',
      scans: [
        { ...news, source: { kind: 'address', address: 'A' }, list: 'A', baselineFor: ['A'] },
        { ...news, source: { kind: 'feed', filter: { to: '0xb' } }, list: 'feed:1', baselineFor: ['feed:1'] },
      ],
      sweeps: [],
    });
    // Once read, down to the overlap below its last read (a late record may lie there), never below when
    // it was added; no lateness measured (what lies below may be history its baseline has not reached).
    const again = planNetwork(input({ addresses: [{ ...pending('A'), since: added }], readAt: new Map([['A', NOW_MS - 10_000]]) }));
    expect(again.discovery).toMatchObject({ scans: [{ stop: { kind: 'past', ts: NOW - 10 - 20 } }] });
    expect(again.discovery?.mode === 'per-address' && again.discovery.scans[0]?.lateBelow).toBeUndefined();
    const longAgo = planNetwork(
      input({ addresses: [{ ...pending('A'), since: NOW_MS - 25_000 }], readAt: new Map([['A', NOW_MS - 10_000]]), overlapSec: 660 }),
    );
    expect(longAgo.discovery).toMatchObject({ scans: [{ stop: { kind: 'past', ts: NOW - 25 } }] });
    expect(plan.listBaseline).toBeNull();
    expect(plan.baselines).toEqual([
      {
        watcher: 'A',
        progress: null,
        // History while its pages hold open messages, never more than BASELINE_HORIZON_MS before the watch began.
        step: {
          source: { kind: 'address', address: 'A' },
          maxPages: BASELINE_MAX_PAGES,
          baselineFor: ['A'],
          stop: { kind: 'while-open', pastTs: (added - BASELINE_HORIZON_MS) / 1000 },
        },
      },
      {
        watcher: 'feed:1',
        progress: null,
        step: {
          source: { kind: 'feed', filter: { to: '0xb' } },
          maxPages: BASELINE_MAX_PAGES,
          baselineFor: ['feed:1'],
          // A feed's (a route's) figures of the last day need its deliveries: its history goes back a day.
          stop: { kind: 'while-open', pastTs: (added - FEED_BASELINE_HORIZON_MS) / 1000 },
        },
      },
    ]);
  });

  it('a baseline the budget stopped goes on from its page, for the pages it has left', () => {
    const progress = { token: 'p7', pages: 7, oldestTs: NOW - 3600 };
    const plan = planNetwork(input({ addresses: [pending('A')], baselineProgress: new Map([['A', progress]]) }));
    expect(plan.baselines).toEqual([
      {
        watcher: 'A',
        progress,
        step: {
          source: { kind: 'address', address: 'A' },
          maxPages: BASELINE_MAX_PAGES - 7,
          baselineFor: ['A'],
          stop: { kind: 'while-open', pastTs: NOW - BASELINE_HORIZON_MS / 1000 },
          resumeToken: 'p7',
        },
      },
    ]);
    // The list baseline in progress goes on for its addresses still waiting; one added since waits or goes alone.
    const many = Array.from({ length: FIREHOSE_BASELINE_MIN_ADDRESSES }, (_, k) => pending(`M${k}`));
    const going = { token: 'q3', pages: 3, oldestTs: null, watchers: many.map((w) => w.key) };
    const next = planNetwork(input({ addresses: [...many, pending('late')], listBaselineProgress: going }));
    expect(next.listBaseline?.watchers).toEqual(going.watchers);
    expect(next.listBaseline?.step.resumeToken).toBe('q3');
    expect(next.baselines.map((b) => b.watcher)).toEqual(['late']);
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
          list: 'A',
          maxPages: MAX_PAGES_PER_SCAN,
          lookFor: ['a1', 'a2'],
          stop: { kind: 'found', need: ['a1', 'a2'], neededTs: NOW - 90, coverTs: null, needPages: NEED_MAX_PAGES },
        },
        {
          source: { kind: 'address', address: 'B' },
          list: 'B',
          maxPages: MAX_PAGES_PER_SCAN,
          lookFor: [],
          stop: { kind: 'found', need: [], neededTs: null, coverTs: null, needPages: NEED_MAX_PAGES },
        },
        {
          source: { kind: 'feed', filter: { destinationBlockchainId: 'X' } },
          list: 'feed:1',
          maxPages: MAX_PAGES_PER_SCAN,
          lookFor: ['f1'],
          stop: { kind: 'found', need: ['f1'], neededTs: NOW - 60, coverTs: null, needPages: NEED_MAX_PAGES },
        },
      ],
      sweeps: [],
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

  it('never plans the firehose deeper than the cycle can afford, and prices history at its measured density', () => {
    const addresses = Array.from({ length: 10 }, (_, k) => live(`A${k}`));
    const head = { ts: NOW - 30, at: NOW_MS - 30_000 };
    // Forty messages an hour down, each of its own address (6 pages deep each): by ID 40, by depth far less.
    const old = Array.from({ length: 40 }, (_, k) => due(`old${k}`, 3600 + k, `A${k % 10}`));
    const base = { addresses, head, ratePerSec: 0.2, due: old, addressPages: new Map(addresses.map((a) => [a.key, 6] as const)) };
    const deep = planNetwork(input(base));
    if (deep.discovery?.mode !== 'firehose') throw new Error('expected the firehose');
    expect(deep.discovery.rechecks.depthTs).toBe(NOW - 3639); // 9 pages at 0.2 msg/s
    // With 5 requests left in the cycle, paging 9 deep would be cut short (the cursor would not move): by ID instead.
    const short = planNetwork(input({ ...base, requestsLeft: 5 }));
    if (short.discovery?.mode !== 'firehose') throw new Error('expected the firehose');
    expect(short.discovery.rechecks.depthTs).toBeNull();
    expect(short.discovery.rechecks.byId).toHaveLength(40);
    // Traffic has stopped (the rate fell to nothing) but the last deep read found 2 msg/s of history: an
    // hour down is 73 pages, not one, so it is not planned as free.
    const quiet = planNetwork(input({ ...base, ratePerSec: 0.001, densityPerSec: 2 }));
    if (quiet.discovery?.mode !== 'firehose') throw new Error('expected the firehose');
    expect(quiet.discovery.rechecks.depthTs).toBeNull();
    expect(planNetwork(input({ ...base, ratePerSec: 0.001 })).discovery).toMatchObject({ rechecks: { depthTs: NOW - 3639 } });
  });

  it('takes many baselines through one pass over the list (BASELINE_HORIZON_MS back: 30 min, as the stuck threshold), and feeds one by one', () => {
    const many = Array.from({ length: FIREHOSE_BASELINE_MIN_ADDRESSES }, (_, k) => pending(`P${k}`));
    const plan = planNetwork(input({ addresses: many, feeds: [{ ...pending('feed:9'), filter: { from: '0xa' } }] }));
    expect(plan.listBaseline?.watchers).toEqual(many.map((w) => w.key));
    expect(plan.listBaseline?.step).toEqual({
      source: { kind: 'firehose' },
      maxPages: FIREHOSE_BASELINE_MIN_ADDRESSES * BASELINE_MAX_PAGES,
      baselineFor: many.map((w) => w.key),
      stop: { kind: 'past', ts: NOW - 1800, undated: 'continue' },
    });
    expect(BASELINE_HORIZON_MS).toBe(30 * 60_000);
    expect(plan.baselines.map((b) => b.watcher)).toEqual(['feed:9']);
    // One fewer on a busy list (30 min at 5 msg/s: 91 pages, more than 19 addresses at a page each): each address reads its own history.
    expect(planNetwork(input({ addresses: many.slice(1), ratePerSec: 5 })).baselines).toHaveLength(FIREHOSE_BASELINE_MIN_ADDRESSES - 1);
  });

  it('takes a few baselines through the list when its pages cost no more than a page per address, priced at the rate the head read measures', () => {
    const few = ['A', 'B', 'C'].map(pending);
    // 30 min at 0.1 msg/s: 3 pages for 3 addresses.
    expect(listBaselinePages(few, NOW_MS, 0.1)).toBe(3);
    const quiet = planNetwork(input({ addresses: few, ratePerSec: 0.1 }));
    expect(quiet.listBaseline?.watchers).toEqual(['A', 'B', 'C']);
    expect(quiet.baselines).toEqual([]);
    // 2 msg/s: 37 pages for 3 addresses; each reads its own.
    const busy = planNetwork(input({ addresses: few, ratePerSec: 2 }));
    expect(busy.listBaseline).toBeNull();
    expect(busy.baselines.map((b) => b.watcher)).toEqual(['A', 'B', 'C']);
    // The history read so far is denser than the rate now: priced at that density.
    expect(planNetwork(input({ addresses: few, ratePerSec: 0.1, densityPerSec: 2 })).listBaseline).toBeNull();
    // Rate unknown while the firehose is read: one by one, unless the executor chooses again at the rate its head read measured.
    const unknown = planNetwork(input({ addresses: few, ratePerSec: null }));
    expect(unknown.discovery?.mode).toBe('firehose');
    expect(unknown.baselines).toHaveLength(3);
    expect(unknown.baselinesAtRate?.(0.1).listBaseline?.watchers).toEqual(['A', 'B', 'C']);
    expect(unknown.baselinesAtRate?.(2).baselines).toHaveLength(3);
    expect(unknown.baselinesAtRate?.(null).baselines).toHaveLength(3);
    // A single address has no choice to make; a known rate needs no second choice.
    expect(planNetwork(input({ addresses: [pending('A')], ratePerSec: null })).baselinesAtRate).toBeUndefined();
    expect(quiet.baselinesAtRate).toBeUndefined();
  });

  it('keeps to the address operation while one firehose costs more pages than the live watchers', () => {
    const addresses = ['A', 'B', 'C', 'D'].map(live);
    const head = { ts: NOW - 10, at: NOW_MS - 10_000 };
    expect(discoveryMode(input({ addresses, head, ratePerSec: 50 }))).toBe('per-address'); // 6 pages > 4 addresses
    expect(discoveryMode(input({ addresses, head, ratePerSec: 5 }))).toBe('firehose'); // 1 page
    // Watchers still taking their baseline count: their news is read from the first cycle.
    expect(discoveryMode(input({ addresses: addresses.map((a) => ({ ...a, baselineDone: false })) }))).toBe('firehose');
    expect(discoveryMode(input({ addresses: [] }))).toBeNull();
    // An open echo chain keeps news on the unfiltered list until a read from the top leaves echo mode.
    expect(discoveryMode(input({ addresses, head, ratePerSec: 50, echoing: true }))).toBe('firehose');
    expect(planNetwork(input({ addresses, head, ratePerSec: 50, echoing: true })).discovery?.mode).toBe('firehose');
    expect(discoveryMode(input({ addresses, head: null, ratePerSec: 50, echoing: true }))).toBe('per-address');
  });

  it('leaves the address operation when the watched lists themselves are dense (their pages outnumber the firehose pages)', () => {
    const addresses = ['A', 'B', 'C', 'D'].map(live);
    const head = { ts: NOW - 10, at: NOW_MS - 10_000 };
    // 50 msg/s over 10 s: 6 firehose pages; four lists at 40 msg/s each: 5 pages each.
    expect(discoveryMode(input({ addresses, head, ratePerSec: 50, listRatesPerSec: [40, 40, 40, 40] }))).toBe('firehose');
    expect(planNetwork(input({ addresses, head, ratePerSec: 50, listRatesPerSec: [40, 40, 40, 40] })).discovery?.mode).toBe('firehose');
    expect(discoveryMode(input({ addresses, head, ratePerSec: 50, listRatesPerSec: [1, 1, 1, 1] }))).toBe('per-address');
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

describe('late records in the plan', () => {
  const many = Array.from({ length: 20 }, (_, k) => live(`A${k}`));

  it('reads the firehose below its cursor by the overlap, so a record that appeared under the cursor is read', () => {
    // Last scan saw up to NOW-10; a record stamped NOW-25 appeared since (15 s of indexer lag).
    const head = { ts: NOW - 10, at: NOW_MS - 10_000 };
    const plan = planNetwork(input({ addresses: many, head, ratePerSec: 1, overlapSec: 20 }));
    if (plan.discovery?.mode !== 'firehose') throw new Error('expected the firehose');
    expect(plan.discovery.head.stop).toEqual({ kind: 'past', ts: NOW - 30, undated: 'stop' });
    expect(plan.discovery.head.lateBelow).toBe(NOW - 10);
    const stopTs = (plan.discovery.head.stop as { ts: number }).ts;
    expect(stopTs).toBeLessThan(NOW - 25);
  });

  it('plans a trailing sweep 30 min deep every 5 min, spread over the cycles of that period, resumed where it stopped', () => {
    const head = { ts: NOW - 10, at: NOW_MS - 10_000 };
    // None since start: one begins now. At 5 msg/s, 30 min is 91 pages over 29 cycles of 10 s: 4 a cycle.
    const first = planNetwork(input({ addresses: many, head, ratePerSec: 5, lastTrailAt: null }));
    expect(first.trail).toEqual({
      sweep: { token: null, floorTs: NOW - MAX_LATENESS_S, startedAt: NOW_MS },
      step: { source: { kind: 'firehose' }, maxPages: 4, stop: { kind: 'past', ts: NOW - MAX_LATENESS_S, undated: 'continue' }, lateBelow: NOW - 10 },
    });
    // One started 4 min ago and ended: none due yet; 5 min ago: a new one.
    expect(planNetwork(input({ addresses: many, head, ratePerSec: 5, lastTrailAt: NOW_MS - 4 * 60_000 })).trail).toBeNull();
    expect(planNetwork(input({ addresses: many, head, ratePerSec: 5, lastTrailAt: NOW_MS - TRAIL_PERIOD_MS })).trail).not.toBeNull();
    // One in progress goes on from its token.
    const sweep = { token: 'tok', floorTs: NOW - 1000, startedAt: NOW_MS - 60_000 };
    const going = planNetwork(input({ addresses: many, head, ratePerSec: 5, lastTrailAt: NOW_MS - 60_000, trail: sweep }));
    expect(going.trail?.step).toMatchObject({ resumeToken: 'tok', stop: { kind: 'past', ts: NOW - 1000 } });
  });

  it('starts a new sweep only on a cycle that reads the full overlap (the sweep goes on below that read); one in progress goes on', () => {
    const head = { ts: NOW - 10, at: NOW_MS - 10_000 };
    const due = { addresses: many, head, ratePerSec: 5, lastTrailAt: null };
    expect(planNetwork(input({ ...due, fullOverlap: false })).trail).toBeNull();
    expect(planNetwork(input({ ...due, fullOverlap: true })).trail?.sweep.token).toBeNull();
    const sweep = { token: 'tok', floorTs: NOW - 1000, startedAt: NOW_MS - 60_000 };
    expect(planNetwork(input({ ...due, lastTrailAt: NOW_MS - 60_000, trail: sweep, fullOverlap: false })).trail?.step.resumeToken).toBe('tok');
  });

  it('reads each address down to the overlap below its last read, and sweeps it 30 min down once every 5 min in a step of its own', () => {
    const since = NOW_MS - 10_000;
    const plain = planNetwork(input({ addresses: [live('A')], lastDiscoveryAt: since, overlapSec: 40, sweptAt: new Map([['A', NOW_MS - 60_000]]) }));
    if (plain.discovery?.mode !== 'per-address') throw new Error('expected per-address');
    expect(plain.discovery.scans[0]).toMatchObject({ list: 'A', stop: { coverTs: since / 1000 - 40 }, lateBelow: since / 1000 });
    expect(plain.discovery.sweeps).toEqual([]);
    const sweep = planNetwork(input({ addresses: [live('A')], lastDiscoveryAt: since, overlapSec: 40, sweptAt: new Map([['A', NOW_MS - TRAIL_PERIOD_MS]]) }));
    if (sweep.discovery?.mode !== 'per-address') throw new Error('expected per-address');
    // The list's scan stays shallow (the sweep must not take the cycle's budget before the other lists are read).
    expect(sweep.discovery.scans[0]).toMatchObject({ stop: { coverTs: since / 1000 - 40 } });
    expect(sweep.discovery.sweeps).toEqual([
      {
        list: 'A',
        sweep: { token: null, floorTs: NOW - MAX_LATENESS_S, startedAt: NOW_MS },
        step: expect.objectContaining({ source: { kind: 'address', address: 'A' }, stop: { kind: 'past', ts: NOW - MAX_LATENESS_S, undated: 'continue' } }),
      },
    ]);
  });

  it('reads each list below its own last completed read: a list the budget cut short reads deeper, the others do not', () => {
    const readAt = new Map([['A', NOW_MS - 10_000]]); // B was cut short: its last completed read is older
    const plan = planNetwork(input({ addresses: [live('A'), live('B')], lastDiscoveryAt: NOW_MS - 60_000, overlapSec: 20, readAt }));
    if (plan.discovery?.mode !== 'per-address') throw new Error('expected per-address');
    expect(plan.discovery.scans.map((s) => (s.stop.kind === 'found' ? s.stop.coverTs : null))).toEqual([NOW - 10 - 20, NOW - 60 - 20]);
  });

  it('goes on with a sweep in progress from its token, before starting new ones', () => {
    const going = { token: 'tok', floorTs: NOW - MAX_LATENESS_S - 60, startedAt: NOW_MS - 60_000 };
    const plan = planNetwork(
      input({
        addresses: [live('A'), live('B')],
        lastDiscoveryAt: NOW_MS - 10_000,
        sweptAt: new Map(),
        listSweeps: new Map([['B', going]]),
      }),
    );
    if (plan.discovery?.mode !== 'per-address') throw new Error('expected per-address');
    expect(plan.discovery.sweeps.map((s) => [s.list, s.sweep.token, s.step.resumeToken])).toEqual([
      ['B', 'tok', 'tok'],
      ['A', null, undefined],
    ]);
  });

  it('spreads the sweep over the period: a share of the lists each cycle, the longest unswept first', () => {
    // 10 s cycles: 29 a period; 60 lists: 3 swept a cycle; never-swept lists before the others.
    const keys = Array.from({ length: 60 }, (_, k) => `A${k}`);
    const sweptAt = new Map(keys.slice(0, 50).map((k, n) => [k, NOW_MS - TRAIL_PERIOD_MS - n * 1000]));
    const plan = planNetwork(input({ addresses: keys.map(live).slice(0, 2), feeds: [], lastDiscoveryAt: NOW_MS - 10_000, sweptAt }));
    if (plan.discovery?.mode !== 'per-address') throw new Error('expected per-address');
    expect(plan.discovery.sweeps.map((s) => s.list)).toEqual(['A1']); // of two lists, one a cycle; A1 was swept longer ago
    const many = Array.from({ length: 60 }, (_, k) => ({ ...live(`A${k}`), filter: { to: `0x${k}` } }));
    // So busy (1,000 msg/s) that 60 lists cost less than the unfiltered list.
    const wide = planNetwork(input({ feeds: many, ratePerSec: 1000, lastDiscoveryAt: NOW_MS - 10_000, sweptAt }));
    if (wide.discovery?.mode !== 'per-address') throw new Error('expected per-address');
    expect(wide.discovery.sweeps.map((s) => s.list)).toEqual(['A50', 'A51', 'A52']);
  });
});

describe('LatenessTracker', () => {
  it('sizes the overlap from the lateness seen in the last hour: 1.5 times the largest, within 20 s … 15 min', () => {
    const t = new LatenessTracker();
    expect(t.overlapSec(0)).toBe(MIN_OVERLAP_S);
    t.note([12], 0);
    expect(t.overlapSec(0)).toBe(MIN_OVERLAP_S);
    t.note([40, 90], 1000);
    expect(t.overlapSec(1000)).toBe(135);
    t.note([3600], 2000);
    expect(t.overlapSec(2000)).toBe(MAX_OVERLAP_S);
    // An hour later those samples are gone.
    expect(t.overlapSec(2000 + 3600_001)).toBe(MIN_OVERLAP_S);
  });

  it('reads the full overlap every other cycle: the guaranteed lateness plus 2 intervals, or more when later records were seen', () => {
    const t = new LatenessTracker();
    const interval = 10_000;
    // Nothing seen yet: a record up to GUARANTEED_LATENESS_S late is still read within 2 intervals.
    expect(t.fullOverlapSec(0, interval)).toBe(GUARANTEED_LATENESS_S + 20);
    t.note([500], 0);
    expect(t.fullOverlapSec(0, interval)).toBe(750);
    t.note([3600], 0);
    expect(t.fullOverlapSec(0, interval)).toBe(MAX_OVERLAP_S);
    // Due at first, then every other cycle from the last full read that completed.
    expect(t.fullDue(0, interval)).toBe(true);
    t.fullDone(0);
    expect(t.fullDue(interval, interval)).toBe(false);
    expect(t.fullDue(2 * interval, interval)).toBe(true);
    t.fullDone(2 * interval);
    expect(t.fullDue(3 * interval, interval)).toBe(false);
  });
});
