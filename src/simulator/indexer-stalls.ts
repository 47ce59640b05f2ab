/**
 * The lag's rare long tail: indexer stalls. A few times a day the whole indexer stops listing new
 * records and updates for 30-120 minutes, then catches up: everything that would have become visible
 * during the stall appears over the few minutes after it ends, block by block in a seeded order, so
 * records appear out of their timestamp order and hours-old changes (a delivery, a receipt) at once.
 */
import type { Rng } from '../shared/rng';
import { HOUR_MS, MINUTE_MS } from '../shared/time';

/** Mean time between the end of a stall and the start of the next (seeded exponential gaps). */
const STALL_MEAN_GAP_MS = 8 * HOUR_MS;
export const STALL_MIN_MS = 30 * MINUTE_MS;
export const STALL_MAX_MS = 120 * MINUTE_MS;
/** How long the catch-up after a stall takes: each block held reappears within this after the stall's end. */
export const CATCH_UP_MS = 5 * MINUTE_MS;

export interface StallSpan {
  /** Epoch ms the indexer stops listing changes. */
  start: number;
  /** Epoch ms it starts catching up. */
  end: number;
}

interface StallOptions {
  meanGapMs?: number;
  minMs?: number;
  maxMs?: number;
}

function mixBlock(seed: number, chainId: string, block: number): number {
  let h = (seed ^ 0x2545f491) >>> 0;
  for (let i = 0; i < chainId.length; i++) h = Math.imul(h ^ chainId.charCodeAt(i), 0x01000193) >>> 0;
  h = Math.imul(h ^ (block >>> 0), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** The seeded stall schedule from the simulator's start, drawn lazily as simulated time moves on. */
export class IndexerStalls {
  private readonly spans: StallSpan[] = [];
  private readonly meanGapMs: number;
  private readonly minMs: number;
  private readonly maxMs: number;
  private readonly seed: number;

  constructor(
    private readonly rng: Rng,
    startMs: number,
    o: StallOptions = {},
  ) {
    this.meanGapMs = o.meanGapMs ?? STALL_MEAN_GAP_MS;
    this.minMs = o.minMs ?? STALL_MIN_MS;
    this.maxMs = o.maxMs ?? STALL_MAX_MS;
    this.seed = rng.uint32();
    this.drawAfter(startMs);
  }

  /** Stalls that started by `until` (the schedule so far; benches and tests read it). */
  until(until: number): StallSpan[] {
    this.drawUntil(until);
    return this.spans.filter((s) => s.start <= until).map((s) => ({ ...s }));
  }

  /**
   * When a change due to become visible at `dueAt` (its happening time plus its usual lag) on `chainId`
   * really does: unchanged outside a stall; inside one, at the stall's end plus the block's catch-up delay.
   */
  visibleAt(chainId: string, happenedAt: number, dueAt: number): number {
    this.drawUntil(dueAt);
    for (let i = this.spans.length - 1; i >= 0; i--) {
      const s = this.spans[i]!;
      if (s.end <= dueAt) break;
      if (s.start <= dueAt) return s.end + Math.round(mixBlock(this.seed, chainId, Math.floor(happenedAt / 2_000)) * CATCH_UP_MS);
    }
    return dueAt;
  }

  private drawUntil(t: number): void {
    while (this.spans[this.spans.length - 1]!.start <= t) this.drawAfter(this.spans[this.spans.length - 1]!.end);
  }

  private drawAfter(t: number): void {
    const start = Math.round(t + this.rng.exp(this.meanGapMs));
    const end = start + Math.round(this.minMs + this.rng.next() * (this.maxMs - this.minMs));
    this.spans.push({ start, end });
  }
}
