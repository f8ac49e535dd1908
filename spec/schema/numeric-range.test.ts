import { describe, expect, it } from 'vitest';
import { numericRange, roundTo } from './numeric-range.js';

describe('numericRange', () => {
  it('applies exclusive bounds, both the 3.0 boolean and the numeric form', () => {
    expect(numericRange({ minimum: 1, exclusiveMinimum: true, maximum: 5 }, true)).toMatchObject({
      lo: 2,
      hi: 5,
      explicitLo: true,
      explicitHi: true,
    });
    expect(numericRange({ exclusiveMaximum: 10 }, true)).toMatchObject({ hi: 9 });
  });

  it('takes int32 limits from the format, marked as explicit', () => {
    expect(numericRange({ format: 'int32' }, true)).toEqual({
      lo: -2147483648,
      hi: 2147483647,
      explicitLo: true,
      explicitHi: true,
      step: undefined,
    });
  });

  it('moves the bounds onto multiples of multipleOf, without float noise', () => {
    expect(numericRange({ minimum: 0.05, maximum: 1, multipleOf: 0.1 }, false)).toMatchObject({
      lo: 0.1,
      hi: 1,
      step: 0.1,
    });
    expect(roundTo(3 * 0.1, 0.1)).toBe(0.3);
  });

  it('is undefined when no value fits', () => {
    expect(numericRange({ minimum: 3, maximum: 2 }, true)).toBeUndefined();
    expect(numericRange({ minimum: 1.2, maximum: 1.8 }, true)).toBeUndefined();
  });
});
