/**
 * Stands in for src/core/memory/heap-compactor.ts when a bench runs with BENCH_NO_COMPACTOR=1 (the same
 * API, never collecting), to measure what the compactor saves in the same world.
 */
export const DEFAULT_HEAP_GROWTH_BYTES = 0;

export function fullGcFunction(): (() => void) | null {
  return null;
}

export class HeapCompactor {
  get available(): boolean {
    return false;
  }

  compactIfGrown(): boolean {
    return false;
  }
}
