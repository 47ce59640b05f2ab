/**
 * Gives dead objects back between poll cycles. V8 collects its old generation lazily: the next full
 * GC waits until the old space reaches a limit of several times the live heap, so a monitor that runs
 * all day holds tens of MB of garbage from earlier cycles. A full GC while the poller is idle (after a
 * cycle, only once the heap has grown by `growthBytes` since the last one) keeps the process near its
 * live size, for a few milliseconds of work per compaction.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export const DEFAULT_HEAP_GROWTH_BYTES = 12 * 1024 * 1024;

/**
 * V8's full-GC function without starting the process with --expose-gc: the flag applies to contexts
 * created after it is set (the way jest's leak detector gets it). Null where the runtime refuses.
 */
export function fullGcFunction(): (() => void) | null {
  const existing = (globalThis as { gc?: unknown }).gc;
  if (typeof existing === 'function') return existing as () => void;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}

export interface HeapCompactorOptions {
  gc?: (() => void) | null;
  growthBytes?: number;
  /** Bytes of JS heap in use now. */
  usedBytes?: () => number;
}

export class HeapCompactor {
  private readonly gc: (() => void) | null;
  private readonly growthBytes: number;
  private readonly usedBytes: () => number;
  private afterLast: number;

  constructor(o: HeapCompactorOptions = {}) {
    this.gc = o.gc === undefined ? fullGcFunction() : o.gc;
    this.growthBytes = o.growthBytes ?? DEFAULT_HEAP_GROWTH_BYTES;
    this.usedBytes = o.usedBytes ?? (() => getHeapStatistics().used_heap_size);
    this.afterLast = this.usedBytes();
  }

  get available(): boolean {
    return this.gc !== null;
  }

  /** Call when idle: compacts if the heap grew enough since the last compaction; returns whether it did. */
  compactIfGrown(): boolean {
    if (!this.gc || this.usedBytes() - this.afterLast < this.growthBytes) return false;
    this.gc();
    this.afterLast = this.usedBytes();
    return true;
  }
}
