import { describe, expect, it } from 'vitest';
import { median, pairedRatios, spread } from './stats.js';

describe('stats', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('summarises finite values as min/median/max, nothing when none is finite', () => {
    expect(spread([0.8, 0.7, 0.9, Number.NaN])).toEqual({ min: 0.7, median: 0.8, max: 0.9, n: 3 });
    expect(spread([Number.NaN])).toBeUndefined();
  });

  it('pairs runs index by index and skips a pair with a missing side or a zero baseline', () => {
    expect(pairedRatios([8, undefined, 6, 5], [10, 10, 0, 10])).toEqual([0.8, 0.5]);
  });
});
