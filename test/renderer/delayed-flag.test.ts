import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { effectScope, nextTick, ref } from 'vue';
import { useDelayedFlag } from '../../src/renderer/src/logic/delayed-flag';

describe('useDelayedFlag', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('turns on only after the source has stayed on for the delay, and off at once', async () => {
    const busy = ref(false);
    const scope = effectScope();
    const flag = scope.run(() => useDelayedFlag(busy, 250))!;
    busy.value = true;
    await nextTick();
    vi.advanceTimersByTime(249);
    expect(flag.value).toBe(false);
    vi.advanceTimersByTime(1);
    expect(flag.value).toBe(true);
    busy.value = false;
    await nextTick();
    expect(flag.value).toBe(false);
    scope.stop();
  });

  it('never turns on for work shorter than the delay, however often it repeats', async () => {
    const busy = ref(false);
    const scope = effectScope();
    const flag = scope.run(() => useDelayedFlag(busy, 250))!;
    for (let i = 0; i < 20; i++) {
      busy.value = true;
      await nextTick();
      vi.advanceTimersByTime(100);
      busy.value = false;
      await nextTick();
      vi.advanceTimersByTime(100);
      expect(flag.value).toBe(false);
    }
    scope.stop();
  });

  it('starts on when the source already is, and leaves no timer behind once its scope ends', () => {
    const scope = effectScope();
    const flag = scope.run(() => useDelayedFlag(() => true, 250))!;
    expect(vi.getTimerCount()).toBe(1);
    scope.stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(flag.value).toBe(false);
  });
});
