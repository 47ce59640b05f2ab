/**
 * Records that appear late: an indexer shows a record some time after its source timestamp, so it
 * can appear BELOW the point a newest-first read already passed. Two reads catch it:
 * - every other cycle reads a *full overlap* below the last cursor: at least GUARANTEED_LATENESS_S plus
 *   2 intervals, more when later records were seen (1.5 times the largest lateness of the last hour, at
 *   most MAX_OVERLAP_S); the cycles between read MIN_OVERLAP_S. A record is read by the first full
 *   read after it appears, within 2 intervals, for half the pages of a full read every cycle (a first
 *   large lateness is not waited for: it is the bound from the start);
 * - a trailing sweep re-reads the list down to MAX_LATENESS_S below "now" once every TRAIL_PERIOD_MS
 *   (spread over the cycles of that period, with what is left of each cycle's budget).
 * - after an indexer stall (the unfiltered list's newest record stopped advancing for STALL_MIN_S or
 *   more while time went on, then moved on), the sweeps that start within STALL_CATCH_UP_MS read down to
 *   MAX_LATENESS_S below where the list stopped (the stall's length plus the usual lateness), at most
 *   STALL_MAX_SWEEP_S below now: what the stall held back appears then, hours old.
 * Re-reading is safe: the engine compares every record with the store, so a record read twice fires
 * nothing twice.
 */
import {
  FULL_OVERLAP_INTERVALS,
  LATENESS_MAX_SAMPLES,
  LATENESS_WINDOW_MS,
  OVERLAP_FACTOR,
  MAX_LATENESS_S,
  TRAIL_PERIOD_MS,
  MIN_OVERLAP_S,
  MAX_OVERLAP_S,
  GUARANTEED_LATENESS_S,
  STALL_CATCH_UP_MS,
  STALL_MAX_SWEEP_S,
} from '../../shared/policy';

/** The lateness (s) of records first seen below where an earlier read had passed, over the last hour. */
export class LatenessTracker {
  private samples: { at: number; lateSec: number }[] = [];
  private lastFullAt: number | null = null;

  note(lateSec: readonly number[], at: number): void {
    for (const s of lateSec) this.samples.push({ at, lateSec: Math.max(0, s) });
    this.prune(at);
  }

  /** The largest lateness seen in the last hour (0: none). */
  maxLateSec(now: number): number {
    this.prune(now);
    return this.samples.reduce((m, s) => Math.max(m, s.lateSec), 0);
  }

  /** How far below the cursor this cycle reads. */
  overlapSec(now: number): number {
    return Math.min(MAX_OVERLAP_S, Math.max(MIN_OVERLAP_S, Math.ceil(OVERLAP_FACTOR * this.maxLateSec(now))));
  }

  /**
   * How far below the cursor a full read goes: the guaranteed lateness or the overlap learnt, whichever
   * is deeper, plus the intervals until the next full read (a record read then was visible that long).
   */
  fullOverlapSec(now: number, intervalMs: number): number {
    const cover = Math.max(GUARANTEED_LATENESS_S, this.maxLateSec(now));
    const reach = Math.ceil(cover + (FULL_OVERLAP_INTERVALS * intervalMs) / 1000);
    return Math.min(MAX_OVERLAP_S, Math.max(reach, this.overlapSec(now)));
  }

  /** Is this cycle's read below the cursor a full one (the last full read completed FULL_OVERLAP_INTERVALS ago, give or take half an interval)? */
  fullDue(now: number, intervalMs: number): boolean {
    return this.lastFullAt === null || now - this.lastFullAt >= (FULL_OVERLAP_INTERVALS - 0.5) * intervalMs;
  }

  /** A full read below the cursor completed at `now`. */
  fullDone(now: number): void {
    this.lastFullAt = now;
  }

  private prune(now: number): void {
    this.samples = this.samples.filter((s) => now - s.at <= LATENESS_WINDOW_MS);
    if (this.samples.length > LATENESS_MAX_SAMPLES) this.samples = this.samples.slice(-LATENESS_MAX_SAMPLES);
  }
}

/** A trailing sweep of the unfiltered list in progress. */
export interface TrailSweep {
  /** Where the next page starts (null: from the top). */
  token: string | null;
  /** It ends once a page reaches below this source timestamp (s). */
  floorTs: number;
  startedAt: number;
}

/** Pages a sweep `depthSec` deep (MAX_LATENESS_S unless after a stall) reads per cycle so it ends within TRAIL_PERIOD_MS at this rate. */
export function trailPagesPerCycle(ratePerSec: number | null, intervalMs: number, pageSize: number, depthSec = MAX_LATENESS_S): number {
  if (ratePerSec === null) return 1;
  const total = Math.ceil((ratePerSec * depthSec) / pageSize) + 1;
  const cycles = Math.max(1, Math.floor(TRAIL_PERIOD_MS / intervalMs) - 1);
  return Math.max(1, Math.ceil(total / cycles));
}

/**
 * The unfiltered list's newest record was at least this old when last read, then newer ones appeared:
 * the indexer stalled (a quiet network looks the same; its sweep is then a few cheap pages).
 */
export const STALL_MIN_S = GUARANTEED_LATENESS_S;
/** A stall stays in the poll status this long after the indexer resumed. */
export const STALL_SHOWN_MS = LATENESS_WINDOW_MS;

/** An indexer stall seen on the unfiltered list, and how deep the sweeps after it read. */
export interface IndexerStall {
  /** The newest source timestamp (s) the list showed before it stopped advancing. */
  fromTs: number;
  /** How long (s) the list showed nothing newer, as far as the reads saw. */
  stalledSec: number;
  /** When the list moved on again (ms). */
  resumedAt: number;
  /** The sweeps after it read down to this source timestamp (s). */
  floorTs: number;
  /** The stall was longer than STALL_MAX_SWEEP_S allows: records held below floorTs are not followed. */
  limited: boolean;
}

/**
 * A stall, from two reads of the list's top: the previous one's newest record (`prevTs`, read at
 * `prevAt` ms) was STALL_MIN_S old or more, and this one (at `now`) shows newer ones (null: no stall).
 */
export function detectStall(prevTs: number, prevAt: number, newestTs: number, now: number): IndexerStall | null {
  const stalledSec = Math.floor(prevAt / 1000) - prevTs;
  if (newestTs <= prevTs || stalledSec < STALL_MIN_S) return null;
  const wanted = prevTs - MAX_LATENESS_S;
  const cap = Math.floor(now / 1000) - STALL_MAX_SWEEP_S;
  return { fromTs: prevTs, stalledSec, resumedAt: now, floorTs: Math.max(wanted, cap), limited: wanted < cap };
}

/**
 * The stall to sweep after, once `found` is seen: one seen while the catch-up after `prev` runs is that
 * catch-up going on (the held blocks reappear out of order over minutes, so the list's top can look
 * stopped more than once), so the sweeps keep the deeper floor, for STALL_CATCH_UP_MS after the later
 * resumption. Keeping only the later, shallower one lost the records held from the stall's first minutes.
 */
export function joinStall(prev: IndexerStall | null, found: IndexerStall): IndexerStall {
  if (!prev || found.resumedAt - prev.resumedAt > STALL_CATCH_UP_MS) return found;
  return {
    fromTs: Math.min(prev.fromTs, found.fromTs),
    stalledSec: Math.max(prev.stalledSec, found.stalledSec),
    resumedAt: found.resumedAt,
    floorTs: Math.min(prev.floorTs, found.floorTs),
    limited: prev.limited || found.limited,
  };
}

/** Where a trailing sweep starting at `now` ends: MAX_LATENESS_S below now, or deeper right after a stall. */
export function trailFloorTs(now: number, stall: IndexerStall | null): number {
  const usual = Math.floor(now / 1000) - MAX_LATENESS_S;
  return stall && now - stall.resumedAt <= STALL_CATCH_UP_MS ? Math.min(usual, stall.floorTs) : usual;
}
