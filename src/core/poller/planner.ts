/**
 * The planner: from plain values (a network's state, its watchers, its due messages, the time) to the
 * requests of one cycle on that network. No I/O, no clock, no store: the executor gathers the input
 * (plan-input.ts) and runs the plan (executor.ts). The prices it compares live in request-prices.ts.
 */
import type { FeedFilter } from '../../shared/contract';
import { trailFloorTs, trailPagesPerCycle, type IndexerStall, type TrailSweep } from './late-records';
import { MAX_LATENESS_S, TRAIL_PERIOD_MS } from '../../shared/policy';
import type { DiscoveryMode, HeadCursor } from './network-state';
import { firehoseHeadCost, PAGE_SIZE, planRechecks, preferFirehose, type RecheckCandidate, type RecheckPlan } from './request-prices';
import { BASELINE_MAX_PAGES, BASELINE_HORIZON_MS, FEED_BASELINE_HORIZON_MS } from '../../shared/policy';

/** With this many addresses waiting for a baseline, one pass over the unfiltered list is cheaper. */
export const FIREHOSE_BASELINE_MIN = 20;
const MAX_BASELINE_FIREHOSE_PAGES = 2000;
export const MAX_PAGES_PER_SCAN = 60;
/**
 * Per-address discovery pages a list this deep for its due messages, deeper only while each page finds
 * one; one still pending below (a message stuck for long) is asked by ID: otherwise the list's every
 * read grows with that message's age until one list's read takes the cycle's whole budget.
 */
export const NEED_MAX_PAGES = 10;

/** Which list operation a scan pages through. */
export type ListOperation = { kind: 'firehose' } | { kind: 'address'; address: string } | { kind: 'feed'; filter: FeedFilter };

/** When a scan stops paging (besides the last page, its page cap and the cycle budget). */
export type StopRule =
  /** Until a page reaches below `ts` (null: the first page only); `undated` says what a page without timestamps does. */
  | { kind: 'past'; ts: number | null; undated: 'stop' | 'continue' }
  /**
   * Until every needed message was seen (then while full pages still bring news), or the pages pass the
   * oldest of them; and in any case until a page reaches below `coverTs` (late records, null: no floor).
   */
  | {
      kind: 'found';
      need: readonly string[];
      neededTs: number | null;
      coverTs: number | null;
      /** Pages read for the needed messages (the late-record floor aside), then on only while each page finds one; those below are asked by ID. */
      needPages?: number;
    }
  /** While pages still hold open messages (older history matters only then), down to `pastTs` (s) at most. */
  | { kind: 'while-open'; pastTs: number };

export interface ScanStep {
  source: ListOperation;
  maxPages: number;
  stop: StopRule;
  /** Message IDs to report as seen. */
  lookFor?: readonly string[];
  /** Watchers whose baseline this scan takes (what it finds is history for them). */
  baselineFor?: readonly string[];
  /** Count messages newer than this timestamp (s): the rate sample of a firehose scan. */
  countNewerThan?: number | null;
  /** Report the lateness of messages first stored by this scan whose timestamp (s) is below this. */
  lateBelow?: number;
  /** Start from this page token (a trailing sweep resuming). */
  resumeToken?: string;
  /** The watcher whose list this is (per-address discovery): its read time is noted when the scan completes. */
  list?: string;
}

export interface WatcherSummary {
  key: string;
  baselineDone: boolean;
  /** When it was watched (ms): while its baseline runs, discovery reads its news from here (absent: lastDiscoveryAt). */
  since?: number;
}

/** A baseline the budget stopped: where it goes on next cycle (network-state.ts keeps it). */
export interface BaselineProgress {
  /** The page after the last one read. */
  token: string;
  /** Pages read so far. */
  pages: number;
  /** The oldest source timestamp (s) read so far (null: none dated). */
  oldestTs: number | null;
}

/** The list baseline in progress (many addresses through the unfiltered list). */
export interface ListBaselineProgress extends BaselineProgress {
  watchers: readonly string[];
  /** When its first page was read (ms): the pass counts as a trailing sweep started then (absent: now). */
  startedAt?: number;
}
export interface FeedSummary extends WatcherSummary {
  filter: FeedFilter;
}

/** A tracked message due for a re-check (see isDue). */
export interface DueMessage {
  messageId: string;
  /** Where the API sorts it, seconds. */
  ts: number;
  /** Its watched address (baseline taken), if any. */
  address: string | null;
  /** The saved feeds it belongs to (gathered only when feeds are scanned one by one). */
  feeds: readonly string[];
}

export interface NetworkPlanInput {
  nowMs: number;
  intervalMs: number;
  head: HeadCursor | null;
  ratePerSec: number | null;
  addresses: readonly WatcherSummary[];
  feeds: readonly FeedSummary[];
  due: readonly DueMessage[];
  /** Pages of each address's cached history down to its oldest due message (needed in firehose mode). */
  addressPages: ReadonlyMap<string, number>;
  /** How far below the last cursor (s) discovery reads again: late records (late-records.ts). */
  overlapSec: number;
  /** Whether that overlap is this cycle's full one (read every other cycle; absent: yes). */
  fullOverlap?: boolean;
  /** The trailing sweep in progress, if any. */
  trail: TrailSweep | null;
  /** When the last trailing sweep started (ms; null: none yet since start). */
  lastTrailAt: number | null;
  /** The last indexer stall seen (the sweeps right after it read down to its start; absent: none). */
  stall?: IndexerStall | null;
  /** When discovery last ran on this network (ms; null: not since start). */
  lastDiscoveryAt: number | null;
  /** Per-address discovery: when each list's sweep MAX_LATENESS_S down last started (ms; a list not in it: not since start; no map: no sweep this cycle). */
  sweptAt?: ReadonlyMap<string, number>;
  /** Per-address discovery: the sweeps in progress, by list (each resumes where the budget stopped it). */
  listSweeps?: ReadonlyMap<string, TrailSweep>;
  /** Per-address discovery: when each list's scan last completed (ms; a list not in it: lastDiscoveryAt). */
  readAt?: ReadonlyMap<string, number>;
  /** Baselines one watcher at a time that the budget stopped, by watcher: each goes on from its page. */
  baselineProgress?: ReadonlyMap<string, BaselineProgress>;
  /** The list baseline the budget stopped, if any. */
  listBaselineProgress?: ListBaselineProgress | null;
  /** Requests the cycle may still spend (absent: no limit): re-checks never page the firehose deeper than that. */
  requestsLeft?: number;
  /** Messages per second of the unfiltered list's history, as the last deep read found it (null: not measured). */
  densityPerSec?: number | null;
}

export interface FirehoseDiscovery {
  mode: 'firehose';
  /** The scan from the top: new messages, and deep enough for the re-checks planned below it. */
  head: ScanStep;
  candidates: readonly RecheckCandidate[];
  rechecks: RecheckPlan;
}
export interface PerAddressDiscovery {
  mode: 'per-address';
  /** Every live address, then every live feed, each with the due messages to find in it. */
  scans: ScanStep[];
  /** Late records: the lists' sweeps MAX_LATENESS_S down, those in progress first, with what the cycle has left. */
  sweeps: ListSweepPlan[];
}

/** A list's sweep and this cycle's step of it (from its resume token, or from where the list's scan stopped). */
export interface ListSweepPlan {
  list: string;
  sweep: TrailSweep;
  step: ScanStep;
}

/** This cycle's share of a trailing sweep over the unfiltered list (firehose mode). */
export interface TrailPlan {
  sweep: TrailSweep;
  step: ScanStep;
}

export interface NetworkPlan {
  /** New messages and re-checks (null: nothing live to watch yet). */
  discovery: FirehoseDiscovery | PerAddressDiscovery | null;
  /** Many addresses' baselines through one pass over the unfiltered list (after news: with what the cycle has left). */
  listBaseline: { watchers: string[]; step: ScanStep; progress: BaselineProgress | null } | null;
  /** Baselines one watcher at a time, after news, with what the cycle has left; each goes on next cycle from where the budget stopped it. */
  baselines: { watcher: string; step: ScanStep; progress: BaselineProgress | null }[];
  /** Late records: this cycle's share of the trailing sweep (firehose mode; null: none due). */
  trail: TrailPlan | null;
  /** Discovery reads the full overlap below the cursor this cycle (late-records.ts). */
  fullOverlap: boolean;
  /**
   * Present when the addresses' baselines wait for the list's rate (this cycle's head read measures it):
   * the executor plans them with it after discovery (null: still unknown, one by one).
   */
  baselinesAtRate?: (ratePerSec: number | null) => Pick<NetworkPlan, 'listBaseline' | 'baselines'>;
}

/** Seconds since the head cursor (one interval without one). */
const gapSec = (i: Pick<NetworkPlanInput, 'nowMs' | 'intervalMs' | 'head'>): number =>
  i.head ? Math.max(1, (i.nowMs - i.head.at) / 1000) : i.intervalMs / 1000;

/**
 * How new messages are discovered this cycle (null: nothing watched). A watcher still taking its baseline
 * counts: its news (what was sent after it was added) is read from the first cycle, before any history.
 */
export function discoveryMode(i: Pick<NetworkPlanInput, 'nowMs' | 'intervalMs' | 'head' | 'ratePerSec' | 'addresses' | 'feeds'>): DiscoveryMode | null {
  const watched = i.addresses.length + i.feeds.length;
  if (watched === 0) return null;
  return preferFirehose(i.ratePerSec, gapSec(i), watched) ? 'firehose' : 'per-address';
}

/** The plan of one cycle on one network. */
export function planNetwork(i: NetworkPlanInput): NetworkPlan {
  const mode = discoveryMode(i);
  const discovery = mode === 'firehose' ? planFirehose(i) : mode === 'per-address' ? planPerAddress(i) : null;
  const pending = i.addresses.filter((a) => !a.baselineDone);
  const awaitRate = i.ratePerSec === null && pending.length > 1 && pending.length < FIREHOSE_BASELINE_MIN && !i.listBaselineProgress && mode === 'firehose';
  const baselines = planBaselines(i);
  // A list baseline pages the unfiltered list as deep as a trailing sweep (deeper): it stands for the sweep started with it.
  const listPassAt = baselines.listBaseline ? (baselines.listBaseline.progress ? (i.listBaselineProgress?.startedAt ?? i.nowMs) : i.nowMs) : null;
  return {
    discovery,
    ...baselines,
    trail: mode === 'firehose' ? planTrail(i, listPassAt) : null,
    fullOverlap: i.fullOverlap ?? true,
    ...(awaitRate ? { baselinesAtRate: (ratePerSec: number | null) => planBaselines({ ...i, ratePerSec }) } : {}),
  };
}

/** The baselines of the watchers still waiting for one (the addresses' rate-priced, see planAddressBaselines; feeds one by one). */
function planBaselines(i: NetworkPlanInput): Pick<NetworkPlan, 'listBaseline' | 'baselines'> {
  const pending = i.addresses.filter((a) => !a.baselineDone);
  const { listBaseline, oneByOne: addressesOneByOne } = planAddressBaselines(pending, i);
  const oneByOne = [...addressesOneByOne, ...i.feeds.filter((f) => !f.baselineDone)];
  return {
    listBaseline,
    baselines: oneByOne.map((w) => {
      const progress = i.baselineProgress?.get(w.key) ?? null;
      return { watcher: w.key, step: baselineStep(w, progress, i.nowMs), progress };
    }),
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
  const candidates = i.due.map((t) => ({ messageId: t.messageId, ts: t.ts, address: t.address }));
  const rechecks = planRechecks(candidates, {
    // History is priced at its own density when that is higher: a quiet hour's rate would make hours of a busy day look one page deep.
    ratePerSec: Math.max(i.ratePerSec ?? 0, i.densityPerSec ?? 0),
    nowSec,
    headPages,
    addressPages: (a) => i.addressPages.get(a) ?? 1,
    // A depth the cycle cannot afford is cut short: the cursor does not move and the next cycle pays again.
    maxDepthPages: Math.max(headPages, Math.min(MAX_PAGES_PER_SCAN, i.requestsLeft ?? Infinity)),
    byId: true,
  });
  // Below the cursor by the overlap: a record that appeared late, under where the last scan passed.
  const stopBelow = Math.min(i.head ? i.head.ts - i.overlapSec : Infinity, rechecks.depthTs ?? Infinity);
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
 * The addresses' baselines: the list baseline in progress goes on for those of its addresses still
 * waiting; a new one starts when FIREHOSE_BASELINE_MIN or more wait, or when its pages (priced at the
 * list's rate) are no more than the addresses' own lists would cost at one page each; otherwise they are
 * taken one by one (with a list baseline going on, as many as would make a new one wait for it). With
 * the rate unknown, one by one (planNetwork lets the executor choose again once its head read measured it).
 */
function planAddressBaselines(
  pending: readonly WatcherSummary[],
  i: NetworkPlanInput,
): { listBaseline: NetworkPlan['listBaseline']; oneByOne: readonly WatcherSummary[] } {
  const going = i.listBaselineProgress ?? null;
  const inGoing = new Set(going?.watchers ?? []);
  const continuing = pending.filter((w) => inGoing.has(w.key));
  if (going && continuing.length) {
    const rest = pending.filter((w) => !inGoing.has(w.key));
    return { listBaseline: planListBaseline(continuing, i.nowMs, going), oneByOne: rest.length >= FIREHOSE_BASELINE_MIN ? [] : rest };
  }
  if (pending.length >= FIREHOSE_BASELINE_MIN) return { listBaseline: planListBaseline(pending, i.nowMs, null), oneByOne: [] };
  const rate = i.ratePerSec === null ? null : Math.max(i.ratePerSec, i.densityPerSec ?? 0);
  if (rate !== null && pending.length > 1 && listBaselinePages(pending, i.nowMs, rate) <= pending.length)
    return { listBaseline: planListBaseline(pending, i.nowMs, null), oneByOne: [] };
  return { listBaseline: null, oneByOne: pending };
}

/** The pages of a list baseline for these watchers at `rate` messages a second: down to BASELINE_HORIZON_MS before the earliest was added. */
export function listBaselinePages(pending: readonly WatcherSummary[], nowMs: number, rate: number): number {
  const since = Math.min(nowMs, ...pending.map((w) => w.since ?? nowMs));
  return Math.ceil((rate * (nowMs - since + BASELINE_HORIZON_MS)) / 1000 / PAGE_SIZE) + 1;
}

/**
 * Many baselines at once: page the unfiltered list back through history (up to BASELINE_HORIZON_MS,
 * and never more pages than the addresses could cost one by one), going on from where the budget
 * stopped it. Everything older than where it stopped is history for all of them.
 */
function planListBaseline(pending: readonly WatcherSummary[], nowMs: number, progress: BaselineProgress | null): NonNullable<NetworkPlan['listBaseline']> {
  const watchers = pending.map((w) => w.key);
  const since = Math.min(nowMs, ...pending.map((w) => w.since ?? nowMs));
  const horizon = Math.floor((since - BASELINE_HORIZON_MS) / 1000);
  const step: ScanStep = {
    source: { kind: 'firehose' },
    maxPages: Math.max(1, Math.min(pending.length * BASELINE_MAX_PAGES, MAX_BASELINE_FIREHOSE_PAGES) - (progress?.pages ?? 0)),
    baselineFor: watchers,
    stop: { kind: 'past', ts: horizon, undated: 'continue' },
    ...(progress ? { resumeToken: progress.token } : {}),
  };
  return { watchers, step, progress };
}

/** One watcher's recent history (BASELINE_HORIZON_MS before it was added at most), read silently from where the budget stopped it: open messages in it are tracked from now on. */
function baselineStep(w: WatcherSummary | FeedSummary, progress: BaselineProgress | null, nowMs: number): ScanStep {
  const source: ListOperation = 'filter' in w ? { kind: 'feed', filter: w.filter } : { kind: 'address', address: w.key };
  return {
    source,
    maxPages: Math.max(1, BASELINE_MAX_PAGES - (progress?.pages ?? 0)),
    baselineFor: [w.key],
    stop: { kind: 'while-open', pastTs: Math.floor(((w.since ?? nowMs) - ('filter' in w ? FEED_BASELINE_HORIZON_MS : BASELINE_HORIZON_MS)) / 1000) },
    ...(progress ? { resumeToken: progress.token } : {}),
  };
}

/** What the firehose scan from the top reached. */
export interface HeadReach {
  seen: ReadonlySet<string>;
  oldestTs: number | null;
  exhausted: boolean;
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
