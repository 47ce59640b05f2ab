import { describe, expect, it } from 'vitest';
import { scrollTopToReveal, virtualWindow } from '../../src/renderer/src/logic/virtual-window';

describe('virtualWindow', () => {
  const base = { itemHeight: 44, viewportHeight: 440, overscan: 4 };

  it('renders the rows in view plus the overscan, never past either end', () => {
    expect(virtualWindow({ ...base, count: 1000, scrollTop: 0 })).toEqual({ start: 0, end: 15 });
    // Scrolled to row 100 (half a row in): rows 96..114 (10 in view, one partly, 4 either side).
    expect(virtualWindow({ ...base, count: 1000, scrollTop: 100 * 44 + 22 })).toEqual({ start: 96, end: 115 });
    expect(virtualWindow({ ...base, count: 1000, scrollTop: 995 * 44 })).toEqual({ start: 991, end: 1000 });
    expect(virtualWindow({ ...base, count: 7, scrollTop: 0 })).toEqual({ start: 0, end: 7 });
  });

  it('is empty for an empty list and survives odd inputs', () => {
    expect(virtualWindow({ ...base, count: 0, scrollTop: 0 })).toEqual({ start: 0, end: 0 });
    expect(virtualWindow({ ...base, count: 10, scrollTop: -50 })).toEqual({ start: 0, end: 10 });
    // A scroll position left over from a longer list: the window clamps to the end.
    expect(virtualWindow({ ...base, count: 10, scrollTop: 5000 })).toEqual({ start: 10, end: 10 });
  });
});

describe('scrollTopToReveal', () => {
  const base = { itemHeight: 44, viewportHeight: 440 };

  it('moves as little as needed, and not at all when the row is in view', () => {
    expect(scrollTopToReveal({ ...base, index: 3, scrollTop: 0 })).toBeNull();
    expect(scrollTopToReveal({ ...base, index: 10, scrollTop: 0 })).toBe(11 * 44 - 440);
    expect(scrollTopToReveal({ ...base, index: 2, scrollTop: 5 * 44 })).toBe(2 * 44);
  });
});
