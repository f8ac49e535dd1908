import { describe, expect, it } from 'vitest';
import { compareCodePoints } from './compare-code-points.js';

describe('compareCodePoints', () => {
  it.each([
    ['a', 'b', -1],
    ['b', 'a', 1],
    ['a', 'a', 0],
    ['B', 'a', -1], // upper case first: no locale folding
    ['a', 'ab', -1], // a prefix first
    ['Z', 'É', -1], // U+005A < U+00C9
    ['\uFF01', '\u{1F600}', -1], // UTF-16 units would put the emoji (D83D...) first
    ['x\u{1F600}', 'x\u{1F601}', -1], // same high surrogate, low surrogates differ
    ['\u{10000}', '\uFFFF', 1],
  ])('%j vs %j', (a, b, sign) => {
    expect(Math.sign(compareCodePoints(a, b))).toBe(sign);
  });

  it('is not localeCompare', () => {
    expect(['b', 'B', 'a', 'Á'].sort(compareCodePoints)).toEqual(['B', 'a', 'b', 'Á']);
  });
});
