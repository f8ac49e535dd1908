import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import { parseLinkHeader } from './link-header.js';
import { documentedHeader } from './stateful-support.js';

export interface PageLinkContext {
  op: SpecOperation;
  /** The first page's number (0 for zero-based paging). */
  base: number;
  pageName: string;
  /** The last page's number, when the totals tell it. */
  lastIndex: number | undefined;
}

/**
 * What is wrong with the `Link` header of one page: `first` and `last` missing, `next`
 * present on the last page or missing before it, `prev` likewise (only where the spec's
 * description of the header mentions prev), a link to the wrong page, or a link that drops
 * one of the `kept` query parameters.
 */
export function pageLinkProblems(
  exchange: Exchange,
  index: number,
  kept: Record<string, string>,
  c: PageLinkContext,
): string[] {
  const links = parseLinkHeader(exchange.headers.get('link'));
  const problems: string[] = [];
  const find = (rel: string) => links.find((l) => l.rels.includes(rel));
  const description = documentedHeader(c.op, 200, 'Link')?.description ?? '';
  const judgePrev = /\bprev/i.test(description);
  for (const rel of ['first', 'last'])
    if (!find(rel)) problems.push(`page ${index} has no rel="${rel}" link`);
  const wanted: Record<string, number | undefined> = {
    first: c.base,
    last: c.lastIndex,
    next: index + 1,
    // Past the end, where prev points is a matter of taste.
    prev: c.lastIndex !== undefined && index > c.lastIndex ? undefined : index - 1,
  };
  if (c.lastIndex !== undefined) {
    const wantNext = index < c.lastIndex;
    if (Boolean(find('next')) !== wantNext)
      problems.push(
        wantNext
          ? `page ${index} of ${c.base}..${c.lastIndex} has no rel="next" link`
          : `page ${index} (last page ${c.lastIndex}) has a rel="next" link`,
      );
    if (judgePrev && index <= c.lastIndex) {
      const wantPrev = index > c.base;
      if (Boolean(find('prev')) !== wantPrev)
        problems.push(
          wantPrev
            ? `page ${index} has no rel="prev" link`
            : `the first page ${index} has a rel="prev" link`,
        );
    }
  }
  for (const rel of Object.keys(wanted)) {
    const link = find(rel);
    if (!link) continue;
    let url: URL;
    try {
      url = new URL(link.url, exchange.request.url);
    } catch {
      problems.push(`the rel="${rel}" link ${link.url} is not a URL`);
      continue;
    }
    const page = url.searchParams.get(c.pageName);
    const expected = wanted[rel];
    const pageOk =
      expected === undefined || page === String(expected) || (page === null && expected === c.base);
    if (!pageOk)
      problems.push(
        `the rel="${rel}" link of page ${index} points to ${c.pageName}=${page ?? '(none)'}, not ${expected}`,
      );
    for (const [name, value] of Object.entries(kept))
      if (url.searchParams.get(name) !== value)
        problems.push(`the rel="${rel}" link of page ${index} does not keep ${name}=${value}`);
  }
  return problems;
}
