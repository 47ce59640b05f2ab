import { describe, expect, it } from 'vitest';
import { fullGcFunction, HeapCompactor } from '../../src/core/memory/heap-compactor';

describe('heap compaction between poll cycles', () => {
  it('gets a working full GC without --expose-gc: unreachable objects are collected', async () => {
    const gc = fullGcFunction();
    expect(gc).toBeTypeOf('function');
    const ref = (() => new WeakRef({ payload: new Array(100_000).fill('garbage') }))();
    await new Promise((r) => setImmediate(r)); // a WeakRef keeps its target alive until the current job ends
    gc!();
    expect(ref.deref()).toBeUndefined();
  });

  it('compacts only once the heap has grown by the threshold since the last compaction', () => {
    let used = 50;
    let runs = 0;
    const compactor = new HeapCompactor({
      gc: () => {
        runs++;
        used = 30;
      },
      growthBytes: 10,
      usedBytes: () => used,
    });
    used = 59;
    expect(compactor.compactIfGrown()).toBe(false);
    used = 60;
    expect(compactor.compactIfGrown()).toBe(true);
    expect(runs).toBe(1);
    used = 39; // 30 after the compaction + 9
    expect(compactor.compactIfGrown()).toBe(false);
    used = 40;
    expect(compactor.compactIfGrown()).toBe(true);
    expect(runs).toBe(2);
  });

  it('does nothing where no GC function is available', () => {
    const compactor = new HeapCompactor({ gc: null, growthBytes: 1, usedBytes: () => 1e9 });
    expect(compactor.available).toBe(false);
    expect(compactor.compactIfGrown()).toBe(false);
  });
});
