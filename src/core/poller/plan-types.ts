/** The planner's vocabulary: what a cycle's plan is made of (steps, stop rules, discoveries, sweeps) and what it is planned from. */
import type { FeedFilter } from '../../shared/contract';
import type { IndexerStall, TrailSweep } from './late-records';
import type { RecheckCandidate, RecheckPlan } from './request-prices';

/** A baseline the budget stopped: where it goes on next cycle (kept in the network's state between cycles). */
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

export interface HeadCursor {
  /** Newest source timestamp (s) seen at the top of the firehose. */
  ts: number;
  /** When that scan ran (ms). */
  at: number;
}

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

export interface FeedSummary extends WatcherSummary {
  filter: FeedFilter;
  /** A watched route whose history was asked for later (readRouteHistory): its baseline reads back to here (ms) too. */
  historyFrom?: number;
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
  /** When it was last read (ms). */
  seenAt?: number;
}

export interface NetworkPlanInput {
  nowMs: number;
  intervalMs: number;
  head: HeadCursor | null;
  ratePerSec: number | null;
  addresses: readonly WatcherSummary[];
  feeds: readonly FeedSummary[];
  /**
   * Messages per second of each watched list, from the cache (absent: not measured, each list priced at
   * one page a cycle): dense lists cost the per-address mode a page per 100 each.
   */
  listRatesPerSec?: readonly number[];
  /** How far back a route's baseline reads (ms; absent: DEFAULT_ROUTE_HISTORY_HOURS). */
  routeHistoryMs?: number;
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
  /** Echo mode (echoes.ts): the list is busier than the budget's pace for the full overlap and the trailing sweep. */
  echo?: boolean;
  /** An echo chain is open (echoes.ts): news stays on the unfiltered list until a read from the top leaves echo mode. */
  echoing?: boolean;
  /** The read from the top reads news only (echo mode, or a gap below the cursor is open): re-checks below it are asked by ID. */
  newsOnly?: boolean;
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
  /** Echo mode (echoes.ts): the read from the top is news only and leaves its span to be read again later. */
  echo: boolean;
  /**
   * Present when the addresses' baselines wait for the list's rate (this cycle's head read measures it):
   * the executor plans them with it after discovery (null: still unknown, one by one).
   */
  baselinesAtRate?: (ratePerSec: number | null) => Pick<NetworkPlan, 'listBaseline' | 'baselines'>;
}

/** What the firehose scan from the top reached. */
export interface HeadReach {
  seen: ReadonlySet<string>;
  oldestTs: number | null;
  exhausted: boolean;
}
