import { describe, expect, it } from 'vitest';
import { byTime, timeHeader } from '../../src/renderer/src/logic/time-order';

describe('time order of a counted list', () => {
  it('sorts newest or oldest first, rows without a time last either way, and leaves the input as it was', () => {
    const rows = [{ t: 20 }, { t: null }, { t: 30 }, { t: 10 }];
    expect(byTime(rows, (r) => r.t, 'newest').map((r) => r.t)).toEqual([30, 20, 10, null]);
    expect(byTime(rows, (r) => r.t, 'oldest').map((r) => r.t)).toEqual([10, 20, 30, null]);
    expect(rows.map((r) => r.t)).toEqual([20, null, 30, 10]);
    expect([timeHeader('Sent', 'newest'), timeHeader('Sent', 'oldest')]).toEqual(['Sent ↓ newest first', 'Sent ↑ oldest first']);
  });
});
