/**
 * What the poller knows about one network of one data source between cycles, in one place: where the
 * top of its unfiltered list was, how fast messages arrive, how the last cycle discovered news and
 * how it ended. The head cursor outlives a restart (poll_state table); the rest is rebuilt in a cycle.
 */
import type { ErrorInfo } from '../../shared/errors';
import type { PollStateStore } from '../store/poll-state-store';
import { detectStall, joinStall, LatenessTracker, STALL_SHOWN_MS, type IndexerStall, type TrailSweep } from './late-records';
import { MAX_LATENESS_S } from '../../shared/policy';
import type { ScanResult } from './scan';
import { echoAfter, echoesOfHeadRead, stallEcho, type Echo, type EchoChain } from './echoes';
import { keepUp } from './keep-up';
import type { KeepUp } from '../../shared/contract';
import type { BaselineProgress, HeadCursor, ListBaselineProgress } from './plan-types';

/** How a cycle looks for new messages on a network. */
export type DiscoveryMode = 'firehose' | 'per-address';

export interface NetworkState {
  readonly network: 'mainnet' | 'fuji';
  /** The data source (base URL) the cursor belongs to: switching sources starts fresh. */
  readonly source: string;
  head: HeadCursor | null;
  /** Echo mode (echoes.ts): where the last read from the top stopped (null: not echoing, late-records.ts' reads). */
  echoChain: EchoChain | null;
  /** Echoes owed, oldest span first (read on in any mode until none is left). */
  echoes: Echo[];
  /** Messages per second on the unfiltered list (smoothed), null until a firehose scan measured it. */
  ratePerSec: number | null;
  /** Messages per second of its history, over the span the last firehose read of 2 pages or more covered (null: none yet). */
  densityPerSec: number | null;
  /** How the last cycle discovered news (null: nothing live to watch yet). */
  mode: DiscoveryMode | null;
  /** How the last cycle on this network ended (null: fine). */
  lastError: ErrorInfo | null;
  /** How late records appear (sizes the overlap read below the cursor). */
  readonly lateness: LatenessTracker;
  /** The trailing sweep in progress (late records), if any. */
  trail: TrailSweep | null;
  /** The last indexer stall seen on the unfiltered list (the sweeps after it read deeper), if any. */
  stall: IndexerStall | null;
  /** When the last trailing sweep started (ms; null: none since start, so one starts at once). */
  lastTrailAt: number | null;
  /** Since when (ms) its reads saw every record, carriers of receipts included (carrier-coverage.ts; null: not now). */
  coveredSince: number | null;
  /** When discovery last completed on this network (ms). */
  lastDiscoveryAt: number | null;
  /** Per-address discovery: when each list's (watcher key's) last completed sweep MAX_LATENESS_S down started (ms). */
  readonly sweptAt: Map<string, number>;
  /** Per-address discovery: each list's sweep in progress. */
  readonly listSweeps: Map<string, TrailSweep>;
  /** Per-address discovery: when each list's scan last completed (ms). */
  readonly readAt: Map<string, number>;
  /** Per-address discovery: the scan a cycle starts with (the one the last cycle's budget cut short reads first). */
  scanStart: number;
  /** Baselines one watcher at a time the budget stopped, by watcher (each goes on from its page next cycle). */
  readonly baselines: Map<string, BaselineProgress>;
  /** The list baseline the budget stopped, if any. */
  listBaseline: ListBaselineProgress | null;
}

/** Per-network states, keyed by data source and network; head cursors are written through to the store. */
/**
 * The rate the pages below the list's top are priced at: its density when higher than its current rate
 * (a quiet top over a busy hour makes every read below it that hour's pages); null before the first read.
 */
export const pagesRate = (s: Pick<NetworkState, 'ratePerSec' | 'densityPerSec'>): number | null =>
  s.ratePerSec === null ? null : Math.max(s.ratePerSec, s.densityPerSec ?? 0);

export class NetworkStates {
  private states = new Map<string, NetworkState>();

  constructor(private readonly persisted: PollStateStore) {}

  get(network: 'mainnet' | 'fuji', source: string): NetworkState {
    const key = headKey(network, source);
    let s = this.states.get(key);
    if (!s) {
      s = {
        network,
        source,
        head: this.persisted.get<HeadCursor>(key) ?? null,
        echoChain: null,
        echoes: [],
        ratePerSec: null,
        densityPerSec: null,
        mode: null,
        lastError: null,
        lateness: new LatenessTracker(),
        trail: null,
        stall: null,
        lastTrailAt: null,
        coveredSince: null,
        lastDiscoveryAt: null,
        sweptAt: new Map(),
        listSweeps: new Map(),
        readAt: new Map(),
        scanStart: 0,
        baselines: new Map(),
        listBaseline: null,
      };
      this.states.set(key, s);
    }
    return s;
  }

  /**
   * Records a firehose scan from the top: a new rate sample always; the cursor whenever it read the top:
   * what a scan cut short did not reach down to `stopTs` is owed as an echo due at once (a gap), and in
   * echo mode (`echo`) the span it read is owed one later (echoes.ts). Cut short with no place to go on
   * from, the cursor stays.
   */
  afterHeadScan(s: NetworkState, r: ScanResult, now: number, stopTs: number | null = null, echo = false): void {
    if (!echo) s.echoChain = null;
    if (r.pages === 0 || r.newestTs === null) return;
    s.ratePerSec = nextRate(s.ratePerSec, r, s.head, now);
    noteDensity(s, r);
    const left = echo ? echoesOfHeadRead(r, s.echoChain, stopTs, now, (s.head?.ts ?? r.newestTs) - MAX_LATENESS_S) : { echoes: [], chain: null };
    // Out of echo mode a read cut short keeps the cursor (the next cycle reads that far again: cheap at the
    // rates late-records.ts' reads fit); in echo mode it moves and owes the unread part as a gap.
    if ((r.error || r.outOfBudget) && !left.echoes.some((e) => e.gap)) return;
    s.echoes.push(...left.echoes);
    if (echo) s.echoChain = left.chain ?? s.echoChain;
    const stall = s.head ? detectStall(s.head.ts, s.head.at, r.newestTs, now) : null;
    if (stall) s.stall = joinStall(s.stall, stall);
    const held = stall && echo ? stallEcho(r, stall.floorTs, now) : null;
    if (held) s.echoes.push(held);
    s.head = { ts: Math.max(r.newestTs, s.head?.ts ?? 0), at: now };
    this.persist(s);
  }

  /** The cursor as stored: at the oldest owed echo's floor while one is owed (a restart reads that part again, none is skipped). */
  private persist(s: NetworkState): void {
    if (!s.head) return;
    const floor = Math.min(...s.echoes.filter((e) => !e.recheck).map((e) => e.floorTs));
    this.persisted.set(headKey(s.network, s.source), floor < s.head.ts ? { ...s.head, ts: floor } : s.head);
  }

  /** Records a share of an owed echo: it goes on from its next page, is owed again (after an early read), or is done. */
  afterEcho(s: NetworkState, e: Echo, r: ScanResult, early: boolean): void {
    const i = s.echoes.indexOf(e);
    if (i < 0) return;
    noteDensity(s, r);
    const next = echoAfter(e, r, early);
    if (next) s.echoes[i] = next;
    else {
      s.echoes.splice(i, 1);
      this.persist(s);
    }
  }

  /**
   * How far behind the reads of the unfiltered list are (ms): how long the oldest span still owed an echo
   * has gone unread since its first read (a change to a message in it shows at its echo at the latest),
   * over the networks; null when no echo is owed.
   */
  behindMs(now: number): number | null {
    let worst: number | null = null;
    for (const s of this.states.values()) for (const e of s.echoes) if (!e.recheck) worst = Math.max(worst ?? 0, now - e.readAt);
    return worst;
  }

  /**
   * Drops what is held in memory (a switch of source): each network starts again from its stored cursor, as
   * after a restart (an echo still owed is read again from there; the stored cursor stays at its floor).
   */
  forgetInMemory(): void {
    this.states.clear();
  }

  /** The plan does not keep up where a network echoes (keep-up.ts): the costliest such network's figures; null where it keeps up. */
  keepUp(now: number, intervalMs: number): KeepUp | null {
    let worst: KeepUp | null = null;
    for (const s of this.states.values()) {
      if (s.echoChain === null || s.ratePerSec === null) continue;
      const k = keepUp(pagesRate(s)!, intervalMs, s.lateness.fullOverlapSec(now, intervalMs));
      if (!worst || k.needPerMinute > worst.needPerMinute) worst = k;
    }
    return worst;
  }

  /** Records a share of a trailing sweep: it goes on from where it stopped, or ends once below its floor. */
  afterTrail(s: NetworkState, sweep: TrailSweep, r: ScanResult): void {
    noteDensity(s, r);
    if (sweep.token === null && s.trail === null) s.lastTrailAt = sweep.startedAt;
    s.trail = sweepAfter(sweep, r);
  }

  /**
   * A list baseline's pass ended: one that read the unfiltered list as deep as a trailing sweep started
   * with it (MAX_LATENESS_S below its start, or the list's end) counts as that sweep, so the first sweep
   * after many watches were added does not read the same half hour again.
   */
  afterListPass(s: NetworkState, startedAt: number, oldestTs: number | null, exhausted: boolean): void {
    if (!exhausted && (oldestTs === null || oldestTs >= Math.floor(startedAt / 1000) - MAX_LATENESS_S)) return;
    s.lastTrailAt = Math.max(s.lastTrailAt ?? startedAt, startedAt);
  }

  /** Records a share of one list's sweep (per-address discovery): it goes on, or ends and is noted as swept. */
  afterListSweep(s: NetworkState, list: string, sweep: TrailSweep, r: ScanResult): void {
    const next = sweepAfter(sweep, r);
    if (next) s.listSweeps.set(list, next);
    else this.endListSweep(s, list, sweep);
  }

  /** The largest lateness (s) of a record found in the last hour, over every network. */
  maxLateSec(now: number): number {
    return Math.max(0, ...[...this.states.values()].map((s) => s.lateness.maxLateSec(now)));
  }

  /** The longest indexer stall any network resumed from within STALL_SHOWN_MS (null: none). */
  recentStall(now: number): IndexerStall | null {
    const recent = [...this.states.values()].flatMap((s) => (s.stall && now - s.stall.resumedAt <= STALL_SHOWN_MS ? [s.stall] : []));
    return recent.reduce<IndexerStall | null>((a, b) => (a === null || b.stalledSec > a.stalledSec ? b : a), null);
  }

  endListSweep(s: NetworkState, list: string, sweep: TrailSweep): void {
    s.listSweeps.delete(list);
    s.sweptAt.set(list, sweep.startedAt);
  }
}

/** A sweep after one share of it: unchanged when nothing was read, null once it read below its floor. */
function sweepAfter(sweep: TrailSweep, r: ScanResult): TrailSweep | null {
  if (r.pages === 0 || r.error) return sweep;
  const done = r.exhausted || r.nextToken === null || (r.oldestTs !== null && r.oldestTs < sweep.floorTs);
  return done ? null : { ...sweep, token: r.nextToken };
}

const headKey = (network: string, source: string): string => `head:${source}:${network}`;

/** A read of 2 pages or more of the unfiltered list measures how dense its history is (what paging deeper costs). */
function noteDensity(s: NetworkState, r: ScanResult): void {
  if (r.pages < 2 || r.newestTs === null || r.oldestTs === null) return;
  s.densityPerSec = r.count / Math.max(1, r.newestTs - r.oldestTs);
}

/**
 * The rate after a scan from the top: messages newer than the cursor over the time since it (when the
 * scan reached below it), else the messages read over the time span they cover; halfway toward the last.
 */
export function nextRate(prev: number | null, r: ScanResult, head: HeadCursor | null, now: number): number | null {
  let sample: number | null = null;
  if (head && now > head.at && r.oldestTs !== null && r.oldestTs < head.ts) sample = r.newer / ((now - head.at) / 1000);
  else if (r.newestTs !== null && r.oldestTs !== null) sample = (r.count || 1) / Math.max(1, r.newestTs - r.oldestTs + 1);
  if (sample === null) return prev;
  return prev === null ? sample : 0.5 * prev + 0.5 * sample;
}
