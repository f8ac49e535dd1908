import { describe, expect, it } from 'vitest';
import { pageLinks } from './page-links.js';

/** `rel -> URL` of a Link header. */
function rels(header: string): Record<string, string> {
  return Object.fromEntries(
    header.split(', <').map((part) => {
      const m = /^<?([^>]*)>; rel="([a-z]+)"$/.exec(part);
      if (!m) throw new Error(`not a link: ${part}`);
      return [m[2] as string, m[1] as string];
    }),
  );
}

const pageOf = (url: string | undefined) => new URL(url ?? '', 'http://x').searchParams.get('page');

describe('pageLinks', () => {
  it.each([
    {
      name: 'the first of three',
      page: 0,
      totalPages: 3,
      expected: { first: '0', next: '1', last: '2' },
    },
    {
      name: 'the middle of three',
      page: 1,
      totalPages: 3,
      expected: { first: '0', prev: '0', next: '2', last: '2' },
    },
    {
      name: 'the last of three',
      page: 2,
      totalPages: 3,
      expected: { first: '0', prev: '1', last: '2' },
    },
    { name: 'the only page', page: 0, totalPages: 1, expected: { first: '0', last: '0' } },
    { name: 'an empty collection', page: 0, totalPages: 0, expected: { first: '0', last: '0' } },
    { name: 'a page past the end', page: 7, totalPages: 3, expected: { first: '0', last: '2' } },
    {
      name: 'just past the end',
      page: 3,
      totalPages: 3,
      expected: { first: '0', prev: '2', last: '2' },
    },
  ])('$name: first and last always, prev and next in range', ({ page, totalPages, expected }) => {
    const links = rels(pageLinks('/users', '', page, 20, totalPages));
    expect(
      Object.fromEntries(Object.entries(links).map(([rel, url]) => [rel, pageOf(url)])),
    ).toEqual(expected);
  });

  it('lists the links in the order first, prev, next, last', () => {
    expect(Object.keys(rels(pageLinks('/users', '', 1, 20, 3)))).toEqual([
      'first',
      'prev',
      'next',
      'last',
    ]);
  });

  it('uses path-absolute URLs under /api/v1 with page and size', () => {
    const links = rels(pageLinks('/users', 'page=1&size=5', 1, 5, 3));
    expect(links.first).toBe('/api/v1/users?page=0&size=5');
    expect(links.next).toBe('/api/v1/users?page=2&size=5');
  });

  it('keeps every other query parameter as sent, repeated ones included', () => {
    const links = rels(
      pageLinks('/users', 'status=ACTIVE&sort=name,desc&sort=id&page=1&size=10', 1, 10, 4),
    );
    for (const url of Object.values(links)) {
      const params = new URL(url, 'http://x').searchParams;
      expect(params.get('status')).toBe('ACTIVE');
      expect(params.getAll('sort')).toEqual(['name,desc', 'id']);
      expect(params.getAll('page')).toHaveLength(1);
      expect(params.get('size')).toBe('10');
    }
    expect(links.prev).toContain('sort=name,desc');
  });

  it('adds the size actually used when the client sent none', () => {
    const links = rels(pageLinks('/users', 'status=INACTIVE', 0, 20, 2));
    expect(links.next).toBe('/api/v1/users?status=INACTIVE&page=1&size=20');
  });
});
