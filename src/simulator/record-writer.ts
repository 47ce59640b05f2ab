/**
 * The simulator's writes to the record store: each change waits out its indexing lag (and any indexer
 * stall) in per-message order, then goes to the sink in batches. A preload holds finished records back
 * and appends them in time order, so the store's pages stay full.
 */
import type { BlockLags } from './index-lag';
import { VisibilityOrder } from './index-lag';
import type { IndexerStalls } from './indexer-stalls';
import { recordOf, type MessagePlan, type Stage } from './message-plan';
import type { EventBody, RecordSink } from './sim-types';

/** Sort time of a record (seconds): source timestamp, else destination timestamp. */
const sortTime = (p: MessagePlan): number => (p.outcome === 'sourceNotIndexed' ? p.destTx.timestamp : p.sourceTx.timestamp);

/** Writes waiting this many: flushed within the step rather than at its end. */
const FLUSH_AT = 5000;

export interface RecordWriterOptions {
  sink: RecordSink;
  /** Draw an indexing lag for each change (else only a plan's own lagMs delays it). */
  lag: boolean;
  lags: BlockLags;
  stalls: IndexerStalls | null;
  /** Simulated time now, epoch ms. */
  now: () => number;
  /** Schedules a change's `visible` event when it has to wait. */
  push: (ev: EventBody) => void;
}

export class RecordWriter {
  private bulk: Map<string, { plan: MessagePlan; stage: Stage }> | null = null;
  /** Finished messages of a preload, held back until older than any message still in flight. */
  private held: { ts: number; record: Record<string, unknown> }[] = [];
  private holdLimit = 20_000;
  private pendingWrites: { record: Record<string, unknown>; happenedAt: number }[] = [];
  private readonly visibility = new VisibilityOrder();

  constructor(private readonly o: RecordWriterOptions) {}

  /** A preload starts: only final states are kept, in memory, until `endBulk`. */
  beginBulk(): void {
    this.bulk = new Map();
  }

  /** A preload ends: what is still in flight is written in its current state, everything in time order. */
  endBulk(): void {
    for (const { plan, stage } of this.bulk?.values() ?? []) this.held.push({ ts: sortTime(plan), record: recordOf(plan, stage) });
    this.bulk = null;
    this.releaseHeld(Infinity);
  }

  /** A message reached `stage` now (`final`: it will not change again). */
  write(plan: MessagePlan, stage: Stage, final = false): void {
    if (this.bulk) {
      if (final) {
        this.bulk.delete(plan.messageId);
        this.held.push({ ts: sortTime(plan), record: recordOf(plan, stage) });
      } else this.bulk.set(plan.messageId, { plan, stage });
      return;
    }
    // The chain whose block holds the change: sent on the source; delivered on the destination; a receipt lands with its carrier on the source.
    this.emit(plan, recordOf(plan, stage), stage === 'delivered' ? plan.destination.blockchainId : plan.source.blockchainId);
  }

  /** A change's `visible` event: its lag has passed. */
  visible(ev: { id: string; record: Record<string, unknown>; happenedAt: number }): void {
    this.visibility.released(ev.id);
    this.pendingWrites.push({ record: ev.record, happenedAt: ev.happenedAt });
  }

  /** After each event of a step: flushes a large batch; writes held records older than `cutoff()` (seconds) once the pile is large. */
  afterEvent(cutoff: () => number): void {
    if (this.pendingWrites.length >= FLUSH_AT) this.flush();
    if (this.held.length >= this.holdLimit) this.releaseHeld(cutoff());
  }

  /** Sends what is waiting to the sink, as visible now. */
  flush(): void {
    if (this.pendingWrites.length === 0) return;
    const batch = this.pendingWrites;
    this.pendingWrites = [];
    const visibleAt = this.o.now();
    this.o.sink(batch.map((w) => ({ record: w.record, happenedAt: w.happenedAt, visibleAt })));
  }

  /** A change happened now: written at once, or queued until its indexing lag has passed. */
  private emit(plan: MessagePlan, record: Record<string, unknown>, chainId: string): void {
    const happenedAt = this.o.now();
    const drawn = this.o.lag ? this.o.lags.lagOf(chainId, happenedAt) : 0;
    const lag = plan.lagMs ?? Math.min(drawn, plan.maxLagMs ?? drawn);
    const dueAt = this.o.stalls ? this.o.stalls.visibleAt(chainId, happenedAt, happenedAt + lag) : happenedAt + lag;
    const { visibleAt, wait } = this.visibility.schedule(plan.messageId, dueAt, happenedAt);
    if (!wait) this.pendingWrites.push({ record, happenedAt });
    else this.o.push({ at: visibleAt, kind: 'visible', id: plan.messageId, record, happenedAt });
  }

  /**
   * Writes held preload records older than `cutoff` (seconds) in time order. Appending in order keeps
   * the store's pages full (out-of-order inserts split pages); the order does not affect correctness.
   */
  private releaseHeld(cutoff: number): void {
    this.held.sort((a, b) => a.ts - b.ts);
    let n = 0;
    while (n < this.held.length && this.held[n]!.ts < cutoff) n++;
    const happenedAt = this.o.now();
    for (const h of this.held.slice(0, n)) this.pendingWrites.push({ record: h.record, happenedAt });
    this.held = this.held.slice(n);
    this.holdLimit = Math.max(20_000, this.held.length * 2); // sort again only after the pile has doubled
    this.flush();
  }
}
