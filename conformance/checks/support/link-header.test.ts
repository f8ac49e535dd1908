import { describe, expect, it } from 'vitest';
import { linkWithRel, parseLinkHeader } from './link-header.js';

describe('parseLinkHeader', () => {
  it.each([
    [null, []],
    ['', []],
    ['</a?page=1>; rel="next"', [{ url: '/a?page=1', rels: ['next'] }]],
    [
      '</a?page=0&size=2>; rel="first", </a?page=3&size=2>; rel=last',
      [
        { url: '/a?page=0&size=2', rels: ['first'] },
        { url: '/a?page=3&size=2', rels: ['last'] },
      ],
    ],
    [
      '<https://x.test/a?q=1,2>; title="a, b"; rel="prev first"',
      [{ url: 'https://x.test/a?q=1,2', rels: ['prev', 'first'] }],
    ],
    ['</a>; REL=Next', [{ url: '/a', rels: ['next'] }]],
  ])('%j', (header, links) => {
    expect(parseLinkHeader(header)).toEqual(links);
  });

  it('finds a link by relation type', () => {
    const links = parseLinkHeader('</a>; rel="first", </b>; rel="next"');
    expect(linkWithRel(links, 'next')).toBe('/b');
    expect(linkWithRel(links, 'prev')).toBeUndefined();
  });
});
