/**
 * Indexing lag: how long after a change happens on chain the indexer lists it. A real indexer lists
 * most changes within seconds and some much later (a slow block, a re-index), so records appear out
 * of their timestamp order. `VisibilityOrder` keeps one record's changes in order: a later change
 * never becomes visible before an earlier one.
 */
import type { Rng } from '../shared/rng';
import { MINUTE_MS } from '../shared/time';

/** Shares of the lag distribution: the rest is "a few seconds". */
const LAG_TENS_OF_SECONDS_SHARE = 0.04;
const LAG_MINUTES_SHARE = 0.005;
/** The longest lag drawn (10 minutes). */
export const MAX_LAG_MS = 10 * MINUTE_MS;

/** A seeded lag with a long tail: ~95.5 % 0.5-9 s (median 2.5 s), 4 % 10-60 s, 0.5 % 2-10 min. */
export function drawLagMs(rng: Rng): number {
  const u = rng.next();
  if (u < LAG_MINUTES_SHARE) return Math.round(120_000 + rng.next() * (MAX_LAG_MS - 120_000));
  if (u < LAG_MINUTES_SHARE + LAG_TENS_OF_SECONDS_SHARE) return Math.round(10_000 + rng.next() * 50_000);
  return Math.round(Math.min(9_000, Math.max(500, rng.logNormal(2_500, 0.6))));
}

/** Simulated block time: changes on one chain within this span are one block, indexed together. */
export const BLOCK_MS = 2_000;

/**
 * One lag per block: an indexer lists a block's transactions together, so the changes in one block
 * (a chain, a BLOCK_MS span) share their lag and a late block brings several late records at once.
 */
export class BlockLags {
  private readonly lags = new Map<string, { block: number; lag: number }>();

  constructor(private readonly rng: Rng) {}

  lagOf(chainId: string, at: number): number {
    const block = Math.floor(at / BLOCK_MS);
    const key = `${chainId}|${block}`;
    let e = this.lags.get(key);
    if (!e) {
      e = { block, lag: drawLagMs(this.rng) };
      this.lags.set(key, e);
      if (this.lags.size > 4096) this.forgetBefore(block);
    }
    return e.lag;
  }

  /** Blocks before `block` get no more changes (time only moves forward). */
  private forgetBefore(block: number): void {
    for (const [k, e] of this.lags) if (e.block < block) this.lags.delete(k);
  }
}

/** Per record: when its latest scheduled change becomes visible, and how many of its changes still wait. */
export class VisibilityOrder {
  private readonly waiting = new Map<string, { at: number; count: number }>();

  /**
   * When a change of `id` due at `dueAt` becomes visible (never before an earlier change of the same
   * record), and whether it has to wait (false: write it now, nothing of the record is queued).
   */
  schedule(id: string, dueAt: number, now: number): { visibleAt: number; wait: boolean } {
    const w = this.waiting.get(id);
    const visibleAt = Math.max(dueAt, w?.at ?? -Infinity);
    if (!w && visibleAt <= now) return { visibleAt: now, wait: false };
    if (w) {
      w.at = visibleAt;
      w.count++;
    } else this.waiting.set(id, { at: visibleAt, count: 1 });
    return { visibleAt, wait: true };
  }

  /** One waiting change of `id` was written. */
  released(id: string): void {
    const w = this.waiting.get(id);
    if (!w) return;
    if (--w.count === 0) this.waiting.delete(id);
  }

  get size(): number {
    return this.waiting.size;
  }
}
