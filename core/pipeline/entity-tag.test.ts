import { describe, expect, it } from 'vitest';
import {
  hashText,
  httpDate,
  notModifiedSince,
  parseETagList,
  strongETag,
  strongMatch,
  weakETag,
  weakMatch,
} from './entity-tag.js';

describe('hashText', () => {
  it.each([
    { name: 'empty text', text: '' },
    { name: 'ASCII JSON', text: '{"id":1,"name":"Ada"}' },
    { name: 'astral characters', text: '{"name":"😀😀"}' },
    { name: 'a large body', text: 'x'.repeat(100_000) },
  ])('is deterministic, base-36 and at most 27 characters: $name', ({ text }) => {
    const hash = hashText(text);
    expect(hashText(text)).toBe(hash);
    expect(hash).toMatch(/^[0-9a-z]{1,27}$/);
  });

  // Tags outlive a release: clients and the mocks' stored data hold them, so the hash of a
  // given text never changes (these are the values of the original two-pass version).
  it.each([
    { text: '', tag: '1aggevgbi2j1247s7v64qa' },
    { text: '{"id":1}', tag: 'fwqv2p4upg2cui1vhyoma' },
    { text: 'né 😀 日本', tag: '263p91cz6mbhgs39jfj33' },
    { text: 'x'.repeat(5000), tag: '1zg3al0ekkrlw79079d9o' },
  ])('is stable: $tag', ({ text, tag }) => {
    expect(hashText(text)).toBe(tag);
  });

  it.each([
    { name: 'one character changed', a: '{"id":1}', b: '{"id":2}' },
    { name: 'key order', a: '{"a":1,"b":2}', b: '{"b":2,"a":1}' },
    { name: 'whitespace', a: '{"a":1}', b: '{"a": 1}' },
    { name: 'case', a: '"Ada"', b: '"ada"' },
  ])('differs when the bytes differ: $name', ({ a, b }) => {
    expect(hashText(a)).not.toBe(hashText(b));
  });
});

describe('strongETag and weakETag', () => {
  it('quote the same opaque tag, the weak one with W/', () => {
    const body = '{"id":1}';
    expect(strongETag(body)).toBe(`"${hashText(body)}"`);
    expect(weakETag(body)).toBe(`W/${strongETag(body)}`);
  });
});

describe('parseETagList', () => {
  it.each([
    { name: 'star', header: '*', expected: '*' },
    { name: 'star with spaces', header: '  *  ', expected: '*' },
    { name: 'one strong tag', header: '"abc"', expected: ['"abc"'] },
    { name: 'one weak tag', header: 'W/"abc"', expected: ['W/"abc"'] },
    { name: 'a list', header: '"a", W/"b" ,"c"', expected: ['"a"', 'W/"b"', '"c"'] },
    { name: 'a list without spaces', header: 'W/"a",W/"b"', expected: ['W/"a"', 'W/"b"'] },
    { name: 'an empty tag', header: '""', expected: ['""'] },
    { name: 'a comma inside a tag', header: '"a,b"', expected: ['"a,b"'] },
    { name: 'unquoted garbage', header: 'abc', expected: [] },
    { name: 'empty', header: '', expected: [] },
  ])('$name', ({ header, expected }) => {
    expect(parseETagList(header)).toEqual(expected);
  });
});

describe('weakMatch (If-None-Match)', () => {
  it.each([
    { name: 'star matches anything', list: '*' as const, current: '"x"', expected: true },
    { name: 'equal strong tags', list: ['"x"'], current: '"x"', expected: true },
    { name: 'weak list, strong current', list: ['W/"x"'], current: '"x"', expected: true },
    { name: 'strong list, weak current', list: ['"x"'], current: 'W/"x"', expected: true },
    { name: 'equal weak tags', list: ['W/"x"'], current: 'W/"x"', expected: true },
    { name: 'one of several', list: ['"a"', '"x"'], current: '"x"', expected: true },
    { name: 'different tags', list: ['"y"'], current: '"x"', expected: false },
    { name: 'an empty list', list: [], current: '"x"', expected: false },
  ])('$name', ({ list, current, expected }) => {
    expect(weakMatch(list, current)).toBe(expected);
  });
});

describe('strongMatch (If-Match)', () => {
  it.each([
    { name: 'star matches anything', list: '*' as const, current: '"x"', expected: true },
    { name: 'equal strong tags', list: ['"x"'], current: '"x"', expected: true },
    { name: 'one of several', list: ['"a"', '"x"'], current: '"x"', expected: true },
    { name: 'weak list, strong current', list: ['W/"x"'], current: '"x"', expected: false },
    { name: 'strong list, weak current', list: ['"x"'], current: 'W/"x"', expected: false },
    { name: 'equal weak tags', list: ['W/"x"'], current: 'W/"x"', expected: false },
    { name: 'different tags', list: ['"y"'], current: '"x"', expected: false },
    { name: 'an empty list', list: [], current: '"x"', expected: false },
  ])('$name', ({ list, current, expected }) => {
    expect(strongMatch(list, current)).toBe(expected);
  });
});

describe('httpDate', () => {
  it.each([
    { iso: '2026-01-10T08:00:00.000Z', expected: 'Sat, 10 Jan 2026 08:00:00 GMT' },
    { iso: '2026-01-10T08:00:00.999Z', expected: 'Sat, 10 Jan 2026 08:00:00 GMT' },
    { iso: '2030-12-31T23:59:59.000Z', expected: 'Tue, 31 Dec 2030 23:59:59 GMT' },
  ])('$iso -> $expected (truncated to the second)', ({ iso, expected }) => {
    expect(httpDate(iso)).toBe(expected);
  });

  it('answers the same again, and past its bound of remembered dates', () => {
    const base = Date.parse('2026-01-10T08:00:00.000Z');
    for (let i = 0; i < 5000; i++) {
      const iso = new Date(base + i * 1000).toISOString();
      expect(httpDate(iso)).toBe(new Date(iso).toUTCString());
    }
    expect(httpDate('2026-01-10T08:00:00.000Z')).toBe('Sat, 10 Jan 2026 08:00:00 GMT');
  });
});

describe('notModifiedSince (If-Modified-Since)', () => {
  const lastModified = '2026-01-10T08:00:00.750Z';
  it.each([
    { name: 'the same second', since: 'Sat, 10 Jan 2026 08:00:00 GMT', expected: true },
    { name: 'a later date', since: 'Sat, 10 Jan 2026 09:00:00 GMT', expected: true },
    { name: 'an earlier date', since: 'Sat, 10 Jan 2026 07:59:59 GMT', expected: false },
    { name: 'the Last-Modified value itself', since: httpDate(lastModified), expected: true },
    { name: 'an invalid date (ignored)', since: 'yesterday', expected: false },
    { name: 'an empty value (ignored)', since: '', expected: false },
  ])('$name', ({ since, expected }) => {
    expect(notModifiedSince(lastModified, since)).toBe(expected);
  });

  it('is false once the resource changed within a later second', () => {
    expect(notModifiedSince('2026-01-10T08:00:01.001Z', 'Sat, 10 Jan 2026 08:00:00 GMT')).toBe(
      false,
    );
  });
});
