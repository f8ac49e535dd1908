import { describe, expect, it } from 'vitest';
import { patternMismatch, patternStrings } from './pattern-strings.js';
import { seededRandom } from './seeded-random.js';

describe('patternStrings', () => {
  const supported = [
    '^(id|name|email|age|createdAt)(,(asc|desc))?$',
    '^[A-Z]{3}-\\d{3}$',
    '^\\+[1-9][0-9]{7,14}$',
    '^[a-z0-9._-]+$',
    '^(?:[A-Fa-f0-9]{2}:){5}[A-Fa-f0-9]{2}$',
    '^[^,\\s]+$',
    '^v\\d+(\\.\\d+){0,2}$',
    '^(?<major>\\d)\\.(\\d)$',
    '^\\u00e9t\\u00e9.?$',
    'abc', // unanchored: a match anywhere is enough
    '^[\\w.]+@example\\.com$',
  ];

  it.each(supported)('samples strings that match %s', (pattern) => {
    const strings = patternStrings(pattern);
    expect(strings).toBeDefined();
    const random = seededRandom(5);
    const regex = new RegExp(pattern, 'u');
    for (let i = 0; i < 30; i++) {
      const value = strings?.sample(random);
      expect(value).toBeDefined();
      expect(regex.test(value as string), `${value} ~ ${pattern}`).toBe(true);
    }
  });

  it('respects length limits and biases toward the short or long end', () => {
    const strings = patternStrings('^[a-z]{2,12}$');
    const random = seededRandom(6);
    expect(strings?.sample(random, { minLength: 5, maxLength: 5 })).toHaveLength(5);
    expect(strings?.sample(random, {}, 'low')).toHaveLength(2);
    expect(strings?.sample(random, {}, 'high')).toHaveLength(12);
    expect(strings?.sample(random, { minLength: 13 })).toBeUndefined();
  });

  it('covers every alternative over many samples', () => {
    const strings = patternStrings('^(id|name)(,(asc|desc))?$');
    const random = seededRandom(7);
    const seen = new Set(Array.from({ length: 60 }, () => strings?.sample(random)));
    expect([...seen].sort()).toEqual(['id', 'id,asc', 'id,desc', 'name', 'name,asc', 'name,desc']);
  });

  it.each(['^(?=CHIP)[A-Z]{4}$', '(a)\\1', '\\bword\\b', '^\\p{L}+$', '[unclosed'])(
    'declines %s (lookaround, backreference, \\b, property escapes, invalid)',
    (pattern) => {
      expect(patternStrings(pattern)).toBeUndefined();
    },
  );

  it('is deterministic for a seed', () => {
    const strings = patternStrings('^[a-z]{3,8}(-[0-9]{2})?$');
    const a = seededRandom(8);
    const b = seededRandom(8);
    for (let i = 0; i < 10; i++) expect(strings?.sample(a)).toBe(strings?.sample(b));
  });
});

describe('patternMismatch', () => {
  it('finds a string of allowed length that does not match', () => {
    expect(patternMismatch('^(id|name)(,(asc|desc))?$')).toBe('unknownValue');
    expect(patternMismatch('^[a-z]+$', { maxLength: 3 })).toBe('!');
    const bad = patternMismatch('^.{3}$', { minLength: 3, maxLength: 3 }, 'abc');
    expect(bad).toBeUndefined();
    const digits = patternMismatch('^[0-9]{4}$', { minLength: 4, maxLength: 4 });
    expect(digits).toHaveLength(4);
    expect(/^[0-9]{4}$/.test(digits as string)).toBe(false);
  });
});
