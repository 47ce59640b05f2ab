/** One way to say a wallet's time to empty (src/shared/time-to-empty.ts): rounded to what the estimate supports, capped at a year. */
import { describe, expect, it } from 'vitest';
import { roundHoursToEmpty, timeToEmptyWords } from '../../src/shared/time-to-empty';

describe('time to empty', () => {
  it('rounds coarser the further away the estimate is', () => {
    expect(timeToEmptyWords(7.4 / 60)).toBe('about 7 min');
    expect(timeToEmptyWords(40.78 / 60)).toBe('about 40 min');
    expect(timeToEmptyWords(3.37)).toBe('about 3 h 20 min');
    expect(timeToEmptyWords(0.999)).toBe('about 1 h');
    expect(timeToEmptyWords(26.6)).toBe('about 27 h');
    expect(timeToEmptyWords(24 * 4.4)).toBe('about 4 d');
  });

  it('caps what is beyond a year', () => {
    expect(timeToEmptyWords(91_220 * 24)).toBe('more than a year');
    expect(roundHoursToEmpty(91_220 * 24)).toBe(8760);
    expect(timeToEmptyWords(300 * 24)).toBe('about 300 d');
  });

  it('never says zero, and says so when nothing was burnt', () => {
    expect(timeToEmptyWords(0.001)).toBe('about 1 min');
    expect(timeToEmptyWords(null)).toBe('no burn in the last hour');
    expect(roundHoursToEmpty(null)).toBeNull();
  });

  it('gives the metric the figure the words say', () => {
    expect(roundHoursToEmpty(40.78 / 60)).toBeCloseTo(40 / 60, 9);
    expect(roundHoursToEmpty(3.37)).toBeCloseTo(3 + 20 / 60, 9);
    expect(roundHoursToEmpty(26.6)).toBe(27);
    expect(roundHoursToEmpty(24 * 4.4)).toBe(96);
  });
});
