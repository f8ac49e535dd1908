import { describe, expect, it } from 'vitest';
import { ResponseHeaders } from './response-headers.js';

/** Header lines as an answer may carry them: mixed case, repeated, padded, Set-Cookie twice. */
const LINES: [string, string][] = [
  ['Content-Type', 'application/json'],
  ['Vary', 'Accept'],
  ['X-Request-Id', ' abc '],
  ['vary', 'Authorization'],
  ['Set-Cookie', 'a=1'],
  ['ETag', '"v1"'],
  ['Set-Cookie', 'b=2'],
  ['Link', '</users?page=1>; rel="next"\t'],
  ['X-Empty', ''],
];

function both(): [Headers, ResponseHeaders] {
  const platform = new Headers();
  for (const [name, value] of LINES) platform.append(name, value);
  const raw = LINES.flatMap(([name, value]) => [Buffer.from(name, 'latin1'), Buffer.from(value)]);
  return [platform, ResponseHeaders.fromRaw(raw)];
}

function view(headers: Headers) {
  const visited: string[] = [];
  headers.forEach((value, name, parent) => visited.push(`${name}=${value}=${parent === headers}`));
  return {
    get: [
      'content-type',
      'VARY',
      'x-request-id',
      'set-cookie',
      'etag',
      'link',
      'x-empty',
      'nope',
    ].map((n) => headers.get(n)),
    has: ['Content-Type', 'nope', 'x-empty'].map((n) => headers.has(n)),
    cookies: headers.getSetCookie(),
    entries: [...headers.entries()],
    keys: [...headers.keys()],
    values: [...headers.values()],
    iterated: [...headers],
    record: Object.fromEntries(headers),
    visited,
  };
}

describe('ResponseHeaders', () => {
  it('answers what the platform Headers answers for the same lines', () => {
    const [platform, ours] = both();
    expect(view(ours)).toEqual(view(platform));
    expect(ours.toRecord()).toEqual(Object.fromEntries(platform));
  });

  it('changes like the platform Headers: set, delete, append after a read', () => {
    const [platform, ours] = both();
    for (const headers of [platform, ours]) {
      void [...headers];
      headers.set('ETAG', ' "v2" ');
      headers.delete('vary');
      headers.append('X-New', 'yes');
      headers.append('set-cookie', 'c=3');
    }
    expect(view(ours)).toEqual(view(platform));
  });

  it('keeps latin1 bytes of a value as the platform reads them', () => {
    const raw = [Buffer.from('X-Name'), Buffer.from([0x63, 0x61, 0x66, 0xe9])];
    expect(ResponseHeaders.fromRaw(raw).get('x-name')).toBe('café');
  });
});
