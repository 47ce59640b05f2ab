/**
 * The planner: from plain values (a network's state, its watchers, its due messages, the time) to the
 * requests of one cycle on that network. No I/O, no clock, no store: the executor gathers the input
 * (plan-input.ts) and runs the plan (executor.ts). The prices it compares live in request-prices.ts.
 */
import { trailFloorTs, trailPagesPerCycle } from './late-records';
import { FIREHOSE_BASELINE_MIN_ADDRESSES, MAX_LATENESS_S, MAX_PAGES_PER_SCAN, NEED_MAX_PAGES, TRAIL_PERIOD_MS } from '../../shared/policy';
import type { DiscoveryMode } from './network-state';
import { planBaselines } from './plan-baselines';
import type {
  DueMessage,
  FirehoseDiscovery,
  HeadReach,
  ListOperation,
  ListSweepPlan,
  NetworkPlan,
  NetworkPlanInput,
  PerAddressDiscovery,
  ScanStep,
  TrailPlan,
  WatcherSummary,
} from './plan-types';
import { firehoseHeadCost, PAGE_SIZE, planRechecks, preferFirehose } from './request-prices';

/** Seconds since the head cursor (one interval without one). */
export const gapSec = (i: Pick<NetworkPlanInput, 'nowMs' | 'intervalMs' | 'head'>): number =>
  i.head ? Math.max(1, (i.nowMs - i.head.at) / 1000) : i.intervalMs / 1000;

/**
 * How new messages are discovered this cycle (null: nothing watched). A watcher still taking its baseline
 * counts: its news (what was sent after it was added) is read from the first cycle, before any history.
 */
export function discoveryMode(
  i: Pick<NetworkPlanInput, 'nowMs' | 'intervalMs' | 'head' | 'ratePerSec' | 'addresses' | 'feeds' | 'echoing' | 'listRatesPerSec'>,
): DiscoveryMode | null {
  const watched = i.addresses.length + i.feeds.length;
  if (watched === 0) return null;
  // Echoing, each record is read twice on the unfiltered list, where one list per watch would need its own
  // sweeps, which the budget cannot pay either; the read from the top that leaves echo mode closes the chain.
  if (i.echoing && i.head) return 'firehose';
  return preferFirehose(i.ratePerSec, gapSec(i), watched, i.listRatesPerSec) ? 'firehose' : 'per-address';
}

/** The plan of one cycle on one network. */
export function planNetwork(i: NetworkPlanInput): NetworkPlan {
  const mode = discoveryMode(i);
  const discovery = mode === 'firehose' ? planFirehose(i) : mode === 'per-address' ? planPerAddress(i) : null;
  const pending = i.addresses.filter((a) => !a.baselineDone);
  const awaitRate =
    i.ratePerSec === null && pending.length > 1 && pending.length < FIREHOSE_BASELINE_MIN_ADDRESSES && !i.listBaselineProgress && mode === 'firehose';
  const baselines = planBaselines(i);
  // A list baseline pages the unfiltered list as deep as a trailing sweep (deeper): it stands for the sweep started with it.
  const listPassAt = baselines.listBaseline ? (baselines.listBaseline.progress ? (i.listBaselineProgress?.startedAt ?? i.nowMs) : i.nowMs) : null;
  return {
    discovery,
    ...baselines,
    // Echo mode: echoes stand for the trailing sweep (echoes.ts).
    trail: mode === 'firehose' && !i.echo ? planTrail(i, listPassAt) : null,
    fullOverlap: (i.fullOverlap ?? true) && !i.echo,
    echo: mode === 'firehose' && (i.echo ?? false),
    ...(awaitRate ? { baselinesAtRate: (ratePerSec: number | null) => planBaselines({ ...i, ratePerSec }) } : {}),
  };
}

/** Is a new trailing sweep due (none in progress, none started within TRAIL_PERIOD_MS, counting a list baseline's pass started at `listPassAt`)? */
const trailDue = (i: Pick<NetworkPlanInput, 'nowMs' | 'trail' | 'lastTrailAt'>, listPassAt: number | null = null): boolean => {
  const last = Math.max(i.lastTrailAt ?? -Infinity, listPassAt ?? -Infinity);
  return i.trail === null && i.nowMs - last >= TRAIL_PERIOD_MS;
};

/**
 * The sweep's pages this cycle: from where it stopped (or the top) down toward MAX_LATENESS_S ago (right
 * after an indexer stall, to the stall's start: trailFloorTs). A new one starts on a cycle that reads the
 * full overlap: it goes on below where that read stopped. While a list baseline pages the list (for a
 * period at most), no new one starts: the executor counts the baseline's pass, once it reached as deep,
 * as the sweep started with it (NetworkStates.afterListPass).
 */
function planTrail(i: NetworkPlanInput, listPassAt: number | null = null): TrailPlan | null {
  const sweep =
    i.trail ??
    (trailDue(i, listPassAt) && i.fullOverlap !== false ? { token: null, floorTs: trailFloorTs(i.nowMs, i.stall ?? null), startedAt: i.nowMs } : null);
  if (!sweep) return null;
  const depthSec = Math.max(MAX_LATENESS_S, Math.floor(sweep.startedAt / 1000) - sweep.floorTs);
  const step: ScanStep = {
    source: { kind: 'firehose' },
    maxPages: trailPagesPerCycle(i.ratePerSec, i.intervalMs, PAGE_SIZE, depthSec),
    stop: { kind: 'past', ts: sweep.floorTs, undated: 'continue' },
    ...(i.head ? { lateBelow: i.head.ts } : {}),
    ...(sweep.token ? { resumeToken: sweep.token } : {}),
  };
  return { sweep, step };
}

function planFirehose(i: NetworkPlanInput): FirehoseDiscovery {
  const nowSec = Math.floor(i.nowMs / 1000);
  const headPages = i.ratePerSec === null ? 1 : firehoseHeadCost(i.ratePerSec, gapSec(i));
  const candidates = i.due.map((t) => ({ messageId: t.messageId, ts: t.ts, address: t.address, ...(t.seenAt !== undefined ? { seenAt: t.seenAt } : {}) }));
  const rechecks = planRechecks(candidates, {
    // History is priced at its own density when that is higher: a quiet hour's rate would make hours of a busy day look one page deep.
    ratePerSec: Math.max(i.ratePerSec ?? 0, i.densityPerSec ?? 0),
    nowSec,
    headPages,
    addressPages: (a) => i.addressPages.get(a) ?? 1,
    // A depth the cycle cannot afford is cut short: the cursor does not move and the next cycle pays again,
    // so the read from the top goes deep for re-checks with at most half of what the cycle has (deeper
    // ones go to a re-check sweep, resumed each cycle: echoes.ts). News only (echo mode, a gap open): the rest is asked by ID.
    maxDepthPages: i.newsOnly ? headPages : Math.max(headPages, Math.min(MAX_PAGES_PER_SCAN, Math.floor((i.requestsLeft ?? Infinity) / 2))),
    byId: true,
    fair: i.echo ?? false,
  });
  // Below the last read by the overlap: a record at most that late that appeared since that read has a
  // source time at most that far before it. From the read's clock time, not the newest record it saw: on a
  // list gone quiet over a busy spell the newest record stays put, and reading below it re-read the spell.
  const stopBelow = Math.min(i.head ? overlapFloor(i.head, i.overlapSec) : Infinity, rechecks.depthTs ?? Infinity);
  const head: ScanStep = {
    source: { kind: 'firehose' },
    // Deep enough for the overlap (a full one can be longer than MAX_PAGES_PER_SCAN at a busy rate), with room for the rate being off.
    maxPages: Math.max(MAX_PAGES_PER_SCAN, i.ratePerSec === null || !i.head ? 0 : 2 * firehoseHeadCost(i.ratePerSec, gapSec(i) + i.overlapSec)),
    countNewerThan: i.head?.ts ?? null,
    lookFor: candidates.map((c) => c.messageId),
    // Without a cursor (first run) one page sets it; otherwise page until past the cursor's overlap and the depth target.
    stop: { kind: 'past', ts: stopBelow === Infinity ? null : stopBelow, undated: 'stop' },
    ...(i.head ? { lateBelow: i.head.ts } : {}),
  };
  return { mode: 'firehose', head, candidates, rechecks };
}

/** Where a read from the top stops for late records: `overlapSec` below the last read's clock time. */
const overlapFloor = (head: NonNullable<NetworkPlanInput['head']>, overlapSec: number): number => Math.floor(head.at / 1000) - overlapSec;

function planPerAddress(i: NetworkPlanInput): PerAddressDiscovery {
  const dueByAddress = new Map<string, DueMessage[]>();
  for (const t of i.due) if (t.address) dueByAddress.set(t.address, [...(dueByAddress.get(t.address) ?? []), t]);
  const lists: { key: string; source: ListOperation; need: DueMessage[] }[] = [
    ...i.addresses
      .filter((a) => a.baselineDone)
      .map((a) => ({ key: a.key, source: { kind: 'address' as const, address: a.key }, need: dueByAddress.get(a.key) ?? [] })),
    ...i.feeds
      .filter((f) => f.baselineDone)
      .map((f) => ({ key: f.key, source: { kind: 'feed' as const, filter: f.filter }, need: i.due.filter((t) => t.feeds.includes(f.key)) })),
  ];
  // A watcher taking its baseline: its list's top, down to the overlap below its last read (the first
  // time, below when it was added): its news now; its history is the baseline's, with what is left.
  const newsOnly = [
    ...i.addresses.filter((a) => !a.baselineDone).map((a) => ({ w: a, source: { kind: 'address' as const, address: a.key } })),
    ...i.feeds.filter((f) => !f.baselineDone).map((f) => ({ w: f, source: { kind: 'feed' as const, filter: f.filter } })),
  ].map(({ w, source }) => newsStep(source, w, i));
  // Late records: each list is read down to the overlap below its own last completed read (a list the
  // budget cut short reads deeper next time; the others do not); its sweep MAX_LATENESS_S down is a
  // step of its own, taking only what the cycle has left after every list's scan, as in firehose mode.
  const sinceOf = (key: string): number | null => {
    const at = i.readAt?.get(key) ?? i.lastDiscoveryAt;
    return at === null || at === undefined ? null : Math.floor(at / 1000);
  };
  const scans = [
    ...lists.map((l) => {
      const since = sinceOf(l.key);
      return findStep(l.source, l.need, { coverTs: since === null ? null : since - i.overlapSec, lateBelow: since }, l.key, NEED_MAX_PAGES);
    }),
    ...newsOnly,
  ];
  const sweeps = i.sweptAt ? planListSweeps(lists, i.sweptAt, i, sinceOf) : [];
  return { mode: 'per-address', scans, sweeps };
}

/**
 * The sweeps in progress, then new ones for the lists due (none started within TRAIL_PERIOD_MS),
 * longest ago first, as many a cycle as sweep every list once a period.
 */
function planListSweeps(
  lists: readonly { key: string; source: ListOperation }[],
  sweptAt: ReadonlyMap<string, number>,
  i: NetworkPlanInput,
  sinceOf: (key: string) => number | null,
): ListSweepPlan[] {
  const going = lists.filter((l) => i.listSweeps?.has(l.key));
  const cycles = Math.max(1, Math.floor(TRAIL_PERIOD_MS / i.intervalMs) - 1);
  const due = lists.filter((l) => !i.listSweeps?.has(l.key) && i.nowMs - (sweptAt.get(l.key) ?? -Infinity) >= TRAIL_PERIOD_MS);
  due.sort((a, b) => (sweptAt.get(a.key) ?? -Infinity) - (sweptAt.get(b.key) ?? -Infinity));
  const floorTs = Math.floor(i.nowMs / 1000) - MAX_LATENESS_S;
  const fresh = due.slice(0, Math.ceil(lists.length / cycles)).map((l) => ({ l, sweep: { token: null, floorTs, startedAt: i.nowMs } }));
  return [...going.map((l) => ({ l, sweep: i.listSweeps!.get(l.key)! })), ...fresh].map(({ l, sweep }) => {
    const since = sinceOf(l.key);
    const step: ScanStep = {
      source: l.source,
      maxPages: MAX_PAGES_PER_SCAN,
      stop: { kind: 'past', ts: sweep.floorTs, undated: 'continue' },
      list: l.key,
      ...(since !== null ? { lateBelow: since } : {}),
      ...(sweep.token ? { resumeToken: sweep.token } : {}),
    };
    return { list: l.key, sweep, step };
  });
}

interface LateCover {
  coverTs: number | null;
  lateBelow: number | null;
}

/** A list's newest page, and older pages until every message still needed from it was seen and the late-record floor is passed. */
function findStep(
  source: ListOperation,
  need: readonly { messageId: string; ts: number }[],
  late: LateCover = { coverTs: null, lateBelow: null },
  list?: string,
  needPages?: number,
): ScanStep {
  const ids = need.map((t) => t.messageId);
  const neededTs = need.reduce<number | null>((min, t) => (min === null ? t.ts : Math.min(min, t.ts)), null);
  return {
    source,
    maxPages: MAX_PAGES_PER_SCAN,
    lookFor: ids,
    stop: { kind: 'found', need: ids, neededTs, coverTs: late.coverTs, ...(needPages !== undefined ? { needPages } : {}) },
    ...(late.lateBelow !== null ? { lateBelow: late.lateBelow } : {}),
    ...(list !== undefined ? { list } : {}),
  };
}

/**
 * A baselining watcher's news: its list from the top down to the overlap below its last read, never below
 * when it was added (older is its baseline's). No lateness is measured here: a record below that, first
 * stored by this read, may simply be history the baseline has not reached yet.
 */
function newsStep(source: ListOperation, w: WatcherSummary, i: NetworkPlanInput): ScanStep {
  const readAt = i.readAt?.get(w.key);
  const sec = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : Math.floor(ms / 1000));
  const added = sec(w.since ?? i.lastDiscoveryAt);
  const below = readAt !== undefined ? Math.floor(readAt / 1000) - i.overlapSec : null;
  const floor = added === null ? below : below === null ? added : Math.max(added, below);
  return {
    source,
    maxPages: MAX_PAGES_PER_SCAN,
    stop: { kind: 'past', ts: floor, undated: 'stop' },
    list: w.key,
    // Read as the baseline reads: what it meets first below what discovery covered is history for all,
    // save what was sent after each watcher was added.
    baselineFor: [w.key],
  };
}

/**
 * The re-checks left after the firehose scan: its planned address scans and IDs, less what it saw,
 * plus every candidate it fell short of (the rate estimate was off), which goes to its address now.
 */
export function planFollowUps(d: FirehoseDiscovery, reach: HeadReach): { scans: ScanStep[]; byId: string[] } {
  const byAddress = new Map([...d.rechecks.byAddress].map(([a, cands]) => [a, [...cands]]));
  const depthTs = d.rechecks.depthTs;
  if (depthTs !== null && reach.oldestTs !== null && reach.oldestTs > depthTs && !reach.exhausted) {
    const planned = new Set([...byAddress.values()].flat().map((c) => c.messageId));
    for (const c of d.candidates) {
      if (c.address === null || reach.seen.has(c.messageId) || c.ts >= reach.oldestTs || planned.has(c.messageId)) continue;
      byAddress.set(c.address, [...(byAddress.get(c.address) ?? []), c]);
    }
  }
  const scans: ScanStep[] = [];
  for (const [address, cands] of byAddress) {
    const need = cands.filter((c) => !reach.seen.has(c.messageId));
    if (need.length) scans.push(findStep({ kind: 'address', address }, need));
  }
  return { scans, byId: d.rechecks.byId.map((c) => c.messageId).filter((id) => !reach.seen.has(id)) };
}
