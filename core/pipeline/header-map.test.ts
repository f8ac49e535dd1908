import { describe, expect, it } from 'vitest';
import { HeaderMap } from './header-map.js';

type Step = ['append' | 'set', string, string] | ['delete', string];

/** Runs the same steps on Fetch's Headers and on a HeaderMap and compares every view. */
function same(steps: Step[]): void {
  const fetch = new Headers();
  const ours = new HeaderMap();
  for (const step of steps) {
    if (step[0] === 'delete') {
      fetch.delete(step[1]);
      ours.delete(step[1]);
    } else {
      fetch[step[0]](step[1], step[2]);
      ours[step[0]](step[1], step[2]);
    }
  }
  expect([...ours]).toEqual([...fetch]);
  expect([...ours.entries()]).toEqual([...fetch.entries()]);
  expect([...ours.keys()]).toEqual([...fetch.keys()]);
  expect([...ours.values()]).toEqual([...fetch.values()]);
  expect(ours.getSetCookie()).toEqual(fetch.getSetCookie());
  const seen: [string, string][] = [];
  ours.forEach((value, name, parent) => {
    expect(parent).toBe(ours);
    seen.push([name, value]);
  });
  expect(seen).toEqual([...fetch]);
  for (const name of new Set(steps.map((s) => s[1]).concat(['absent', 'SET-COOKIE']))) {
    expect(ours.get(name), name).toBe(fetch.get(name));
    expect(ours.has(name), name).toBe(fetch.has(name));
  }
}

describe('HeaderMap answers like Fetch Headers', () => {
  it('set, get and has, case-insensitively, iterating sorted by lower-case name', () => {
    same([
      ['set', 'X-Request-Id', 'abc'],
      ['set', 'Content-Type', 'application/json'],
      ['set', 'ETag', '"x"'],
      ['set', 'etag', '"y"'],
      ['set', 'Cache-Control', 'private, no-cache'],
    ]);
  });

  it('append joins with a comma and a space; set replaces', () => {
    same([
      ['set', 'Vary', 'Authorization, Accept'],
      ['append', 'vary', 'Origin'],
      ['append', 'Allow', 'GET'],
      ['set', 'ALLOW', 'GET, HEAD'],
    ]);
  });

  it('keeps Set-Cookie values apart when iterating, and joins them in get', () => {
    same([
      ['append', 'Set-Cookie', 'a=1'],
      ['append', 'set-cookie', 'b=2'],
      ['set', 'X', '1'],
    ]);
    same([
      ['append', 'Set-Cookie', 'a=1'],
      ['set', 'Set-Cookie', 'c=3'],
    ]);
    same([
      ['append', 'Set-Cookie', 'a=1'],
      ['delete', 'set-cookie'],
    ]);
  });

  it('trims leading and trailing HTTP whitespace from values, nothing else', () => {
    same([
      ['set', 'A', '  padded\t'],
      ['append', 'B', '\r\n x \n'],
      ['set', 'C', '\u00a0nbsp\u00a0'],
      ['set', 'D', ''],
    ]);
  });

  it('deletes', () => {
    same([
      ['set', 'A', '1'],
      ['set', 'B', '2'],
      ['delete', 'a'],
      ['delete', 'absent'],
    ]);
  });
});

describe('HeaderMap.fromNode', () => {
  it('takes Node’s merged request headers as they are, arrays as appended values', () => {
    const headers = HeaderMap.fromNode({
      host: '127.0.0.1:3000',
      authorization: 'Bearer abc',
      'set-cookie': ['a=1', 'b=2'],
      'x-absent': undefined,
    });
    expect(headers.get('Authorization')).toBe('Bearer abc');
    expect(headers.get('set-cookie')).toBe('a=1, b=2');
    expect(headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(headers.has('x-absent')).toBe(false);
    expect([...headers.keys()]).toEqual(['authorization', 'host', 'set-cookie', 'set-cookie']);
  });
});
