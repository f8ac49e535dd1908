import { describe, expect, it } from 'vitest';
import { normalizeHeaderValue } from './header-value.js';

describe('normalizeHeaderValue', () => {
  it.each([
    ['no-cache', 'no-cache'],
    [' \tno-cache\r\n', 'no-cache'],
    ['a , b', 'a , b'],
    ['', ''],
    [' \t ', ''],
  ])('%j -> %j, as Headers stores it', (value, expected) => {
    expect(normalizeHeaderValue(value)).toBe(expected);
    const headers = new Headers();
    headers.set('x-test', value);
    expect(headers.get('x-test')).toBe(expected);
  });
});
