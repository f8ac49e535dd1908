import { describe, expect, it } from 'vitest';
import { otherString, otherUri } from './value-edits.js';

describe('the value edits of the mutation operators', () => {
  it('change a number past 2^53 too (a Number + 1 would leave it as it was)', () => {
    expect(otherUri('/api/v1/categories/9007199254740992')).toBe(
      '/api/v1/categories/9007199254740993',
    );
    expect(otherString('9007199254740992')).toBe('9007199254740993');
  });

  it('change the last number of a URI, else add a segment', () => {
    expect(otherUri('/api/v1/users/7')).toBe('/api/v1/users/8');
    expect(otherUri('/docs/x?y=z')).toBe('/docs/x/x?y=z');
  });
});
