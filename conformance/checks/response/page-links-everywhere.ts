import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { CheckFailure, ResponseCheck } from '../check.js';
import { intParam, isPaged } from '../stateful/paging-invariants.js';
import { pageLinkProblems, type PageLinkContext } from '../support/page-links.js';
import { numeric } from '../support/paging-clauses.js';
import { documentedHeader, isObject, jsonBody, type Schema } from '../support/stateful-support.js';

/**
 * `page_links` (a response check): every page answer of a paged list whose 200 documents a
 * `Link` carries what paging_invariants asks of the pages it walks (page-links.ts): `first` and
 * `last`, `next` and `prev` exactly when in range, each to the right page, keeping the other
 * query parameters the request sent (those the operation declares). The page is the one the
 * request asked for (the first without a page parameter); the last one follows from the
 * answer's `totalPages`. Found by the mutation harness (issue 32): a relation dropped or
 * renamed on a page that paging_invariants does not walk (sorted, filtered, another size)
 * passed.
 */
export const pageLinksEverywhere: ResponseCheck = {
  kind: 'response',
  name: 'page_links',
  description:
    'Every page answer of a paged list carries the Link relations the spec documents (first, last, prev/next in range), to the right pages, keeping the query',
  check(exchange, op): CheckFailure[] {
    if (exchange.request.method !== 'GET' || exchange.response.status !== 200) return [];
    const paging = pagingOf(op);
    if (!paging) return [];
    const asked = askedPage(exchange, op, paging);
    if (!asked) return [];
    const problems = pageLinkProblems(exchange, asked.index, asked.kept, asked.context);
    if (problems.length === 0) return [];
    return [
      {
        message: problems.join('; '),
        expected: 'a Link header as documented for every page',
        actual: exchange.headers.get('link') ?? '(no Link)',
      },
    ];
  },
};

interface Paging {
  page: OpenAPIV3.ParameterObject;
  /** The first page's number (the page parameter's default or minimum, else 0). */
  base: number;
}

/** The paging of an operation whose 200 documents a Link, as paging_invariants reads it. */
function pagingOf(op: SpecOperation): Paging | undefined {
  if (!isPaged(op) || documentedHeader(op, 200, 'Link') === undefined) return undefined;
  const page = intParam(op, 'page');
  if (!page || !intParam(op, 'size')) return undefined;
  const schema = page.schema as Schema;
  return { page, base: numeric(schema.default) ?? numeric(schema.minimum) ?? 0 };
}

/**
 * The page a request asked for, the query parameters its links must keep and what the answer
 * says of the last page. Undefined when the request is not plain enough to say (a parameter
 * given twice, a page that is not an integer).
 */
function askedPage(
  exchange: Exchange,
  op: SpecOperation,
  paging: Paging,
): { index: number; kept: Record<string, string>; context: PageLinkContext } | undefined {
  const query = new URL(exchange.request.url).searchParams;
  const declared = op.parameters.filter((p) => p.in === 'query');
  if (query.getAll(paging.page.name).length > 1) return undefined;
  const sent = query.get(paging.page.name);
  const index = sent === null ? paging.base : Number(sent);
  if (!Number.isSafeInteger(index)) return undefined;
  const kept: Record<string, string> = {};
  for (const p of declared) {
    const value = query.get(p.name);
    if (p.name === paging.page.name || value === null) continue;
    // The server writes integers as numbers (size=02 is linked as size=2).
    const integer = (p.schema as Schema | undefined)?.type === 'integer';
    kept[p.name] = integer && Number.isSafeInteger(Number(value)) ? String(Number(value)) : value;
  }
  const body = jsonBody(exchange);
  const totalPages = isObject(body) ? numeric(body['totalPages']) : undefined;
  const lastIndex =
    totalPages !== undefined ? paging.base + Math.max(totalPages - 1, 0) : undefined;
  return {
    index,
    kept,
    context: { op, base: paging.base, pageName: paging.page.name, lastIndex },
  };
}
