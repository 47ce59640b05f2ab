/**
 * Echoes: late records on a list busier than the budget (late-records.ts' reads cost more than a cycle
 * can pay). Instead of re-reading from the top down to the full overlap and sweeping MAX_LATENESS_S below
 * now, each cycle's read from the top reads news only (down to MIN_OVERLAP_S below the cursor) and keeps
 * the page token where it stopped; the span between that token and where the previous such read
 * stopped is read once more ("echo") from that token once the clock is MAX_LATENESS_S past the span (every
 * record up to MAX_LATENESS_S late has appeared by then; an indexer stall seen meanwhile owes a span of its
 * own, stallEcho, down to where the stall began), and earlier, GUARANTEED_LATENESS_S on, when the cycle has room left. One
 * echo costs about one more read of a cycle's news. Owed echoes are a FIFO queue, never dropped (tokens
 * live 24 h); the stored cursor stays at the oldest owed echo's floor, so a restart reads that part again.
 * A read from the top the budget cut short in echo mode leaves its unread part as an echo due at once
 * (a "gap"): the cursor moves on, so the next read from the top stays a cycle's news deep.
 */
import { GUARANTEED_LATENESS_S, LATE_READS_SAVED_CYCLES, MAX_LATENESS_S, TRAIL_PERIOD_MS } from '../../shared/policy';
import { PAGE_SIZE } from './request-prices';
import type { ScanStep } from './plan-types';
import type { ScanResult } from './scan';

export interface Echo {
  /** Where the re-read goes on (a page token the API gave; at first the span's top: none above it belongs to this span). */
  token: string;
  /** Where an early read in progress goes on (absent: none in progress). */
  earlyToken?: string;
  /** It ends once a page reaches below this source timestamp (s). */
  floorTs: number;
  /** The newest source timestamp (s) the span can hold: it is due once the clock is MAX_LATENESS_S past it. */
  topTs: number;
  /** When the span was first read (ms): its records have not been read since (how far behind the reads are). */
  readAt: number;
  /** A part a cut-short read from the top never read: due at once (then echoed with the next span). */
  gap: boolean;
  /** Read early (GUARANTEED_LATENESS_S on) already: only the MAX_LATENESS_S read is still owed. */
  early: boolean;
  /** A re-check sweep (recheckSweep), not a span owed for late records: it moves neither the stored cursor nor "behind". */
  recheck?: true;
}

/** Where the news reads stand: the floor the next echo's span reaches down to (the last read from the top's oldest record, s). */
export interface EchoChain {
  floorTs: number;
  /** When that read ran (ms). */
  at: number;
}

/**
 * What the budget lets a cycle spend: now (`left`), at most (`cap`: its share of the minute's cap), at the
 * day's pace (`pace`), and saved up below the pace line (`saved`).
 */
export interface CycleMeans {
  left: number;
  cap: number;
  pace: number;
  saved: number;
}

/**
 * Is the list busier than the budget can pay for today's late-record reads? Their pages a cycle (half a
 * full overlap, a trailing sweep's share, the news) against what the cycle may spend now and at the day's
 * pace, or, when the budget has saved an hour of them, against its share of the minute's cap (absent: no limit). Already echoing
 * (`echoing`), it stays so until those reads cost half of that (no flapping at the edge).
 */
export function echoesPay(ratePerSec: number | null, intervalMs: number, fullOverlapSec: number, means: CycleMeans | undefined, echoing: boolean): boolean {
  if (ratePerSec === null || means === undefined) return echoing;
  const cost = lateReadsPerCycle(ratePerSec, intervalMs, fullOverlapSec);
  // With an hour saved only the minute's cap binds: a cycle after a burst (a first read) has less left, the next ones the cap again.
  // Not what this cycle has left: a cycle a sweep or a 429 left short says nothing of the list's rate
  // against the budget (at 0.2 messages/s such a cycle turned echo mode on, off the stall catch-up).
  const can = means.saved >= LATE_READS_SAVED_CYCLES * cost ? means.cap : means.pace;
  return echoing ? cost > can / 2 : cost > can;
}

/** Pages a cycle of late-records.ts' reads: half a full overlap, a trailing sweep's share, the news. */
export function lateReadsPerCycle(ratePerSec: number, intervalMs: number, fullOverlapSec: number): number {
  const intervalS = intervalMs / 1000;
  const pages = (sec: number) => (ratePerSec * sec) / PAGE_SIZE;
  const trailCycles = Math.max(1, Math.floor(TRAIL_PERIOD_MS / intervalMs) - 1);
  return pages(fullOverlapSec + intervalS) / 2 + pages(MAX_LATENESS_S) / trailCycles + pages(intervalS) + 1;
}

/**
 * The order owed echoes are read in: the spans (and gaps) first, oldest first, then the re-check sweeps. A
 * re-check sweep is long and resumed each cycle: read first, it held the spans' due reads back, and
 * "behind" grew past its 30 min (bench:relayers at 20 msg/s: 37.5 min and 686 deliveries read too late).
 */
export const echoReadOrder = (echoes: readonly Echo[]): Echo[] => [...echoes.filter((e) => !e.recheck), ...echoes.filter((e) => e.recheck)];

/** Due now: the clock (`nowTs`, s) is MAX_LATENESS_S past the span (a gap: at once); `early`: GUARANTEED_LATENESS_S past, not yet read early. */
export function echoDue(e: Echo, nowTs: number, early = false): boolean {
  if (e.gap) return true;
  if (early) return !e.early && nowTs >= e.topTs + GUARANTEED_LATENESS_S;
  return nowTs >= e.topTs + MAX_LATENESS_S;
}

/** An echo's share of this cycle (an early read's or the owed one's): from its token down past its floor, at most `maxPages`. */
export function echoStep(e: Echo, maxPages: number, lateBelow: number | null, early: boolean): ScanStep {
  return {
    source: { kind: 'firehose' },
    maxPages,
    stop: { kind: 'past', ts: e.floorTs, undated: 'continue' },
    resumeToken: early ? (e.earlyToken ?? e.token) : e.token,
    ...(lateBelow !== null ? { lateBelow } : {}),
  };
}

/**
 * An echo after a share of it: the owed read goes on from its next page, or is done (null) once below its
 * floor (or at the list's end); an early read goes on from its own page, and once done leaves the owed one.
 */
export function echoAfter(e: Echo, r: ScanResult, early: boolean): Echo | null {
  if (r.pages === 0 || (r.error && r.nextToken === null)) return e;
  const done = r.exhausted || r.nextToken === null || (r.oldestTs !== null && r.oldestTs < e.floorTs);
  if (early) {
    const { earlyToken: _, ...rest } = e;
    return done ? { ...rest, early: true } : { ...e, earlyToken: r.nextToken! };
  }
  return done ? null : { ...e, token: r.nextToken! };
}

/**
 * An indexer stall seen in echo mode: the spans below where the list stopped were echoed by the clock
 * while it held records back, so one more span, from where this read from the top stopped down to the
 * stall's floor (30 min below where it stopped, at most STALL_MAX_SWEEP_S below now), is owed; it waits
 * STALL_CATCH_UP_MS for the held records like the spans from before the stall.
 */
export function stallEcho(r: ScanResult, floorTs: number, now: number): Echo | null {
  if (r.pages === 0 || r.oldestTs === null || r.nextToken === null || r.exhausted || r.oldestTs < floorTs) return null;
  return { token: r.nextToken, floorTs, topTs: r.oldestTs, readAt: now, gap: false, early: false };
}

/**
 * Re-checks by the page: the due messages below this read from the top, when there are more
 * of them than pages down to the oldest (at the list's measured density), are re-read by one sweep from
 * where the read stopped down to that oldest one, due at once and resumed from its page each cycle, rather
 * than one request each: when the sweep fits what this cycle has for it (`room`: read now, as soon as by ID
 * and cheaper), or when the cycle cannot ask them all one by one (`affordable`; else by ID, at once). A
 * busy hour's thousands of open messages are then all read again every few minutes; asked by ID, the
 * budget reached a few hundred and the rest never, and a budget that could pay them all paid a request each.
 */
export function recheckSweep(
  r: ScanResult,
  due: readonly { messageId: string; ts: number }[],
  densityPerSec: number,
  now: number,
  affordable = 0,
  room = 0,
): Echo | null {
  if (r.pages === 0 || r.oldestTs === null || r.nextToken === null || r.exhausted) return null;
  const below = due.filter((c) => c.ts < r.oldestTs! && !r.seen.has(c.messageId));
  if (below.length === 0) return null;
  const floorTs = Math.min(...below.map((c) => c.ts));
  const pages = Math.ceil((densityPerSec * (r.oldestTs - floorTs)) / PAGE_SIZE) + 1;
  if (pages >= below.length) return null;
  if (below.length <= affordable && pages > room) return null;
  return { token: r.nextToken, floorTs, topTs: r.oldestTs, readAt: now, gap: true, early: true, recheck: true };
}

/** The part a read from the top cut short (budget, error) before `stopTs` did not reach: an echo due at once (null: it reached it). */
export function gapLeft(r: ScanResult, stopTs: number | null, now: number): Echo | null {
  if (r.pages === 0 || r.oldestTs === null || r.nextToken === null || r.exhausted || stopTs === null || r.oldestTs < stopTs) return null;
  return { token: r.nextToken, floorTs: stopTs, topTs: r.oldestTs, readAt: now, gap: true, early: true };
}

/**
 * The echoes a read from the top in echo mode leaves: the part it did not reach (gapLeft), and the span
 * between where it stopped and the chain's floor (the previous read's oldest record). Returns them and the
 * chain's next floor (unchanged: the read went nowhere).
 */
export function echoesOfHeadRead(
  r: ScanResult,
  chain: EchoChain | null,
  stopTs: number | null,
  now: number,
  startFloorTs: number,
): { echoes: Echo[]; chain: EchoChain | null } {
  if (r.pages === 0 || r.oldestTs === null || r.nextToken === null || r.exhausted) return { echoes: [], chain };
  const span: Echo = { token: r.nextToken, floorTs: chain?.floorTs ?? startFloorTs, topTs: r.oldestTs, readAt: chain?.at ?? now, gap: false, early: false };
  const gap = gapLeft(r, stopTs, now);
  return { echoes: gap ? [gap, span] : [span], chain: { floorTs: r.oldestTs, at: now } };
}
