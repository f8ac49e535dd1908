import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../spec/operations.js';
import type { Exchange } from '../http/target-client.js';
import type { RunContext } from '../run-context.js';
import { identity, itemsOf, type ListShape } from './stateful-list-shape.js';
import { pageLinkProblems } from './stateful-page-links.js';
import type { ReadTarget } from './stateful-read-targets.js';
import {
  describe,
  documentedHeader,
  isDocumented,
  isObject,
  jsonBody,
  type Schema,
} from './stateful-support.js';

/** Page size of the bounded walk, and how many pages it reads at most. */
const WALK_SIZE = 2;
const WALK_PAGES = 4;

interface Page {
  exchange: Exchange;
  body: unknown;
  items: unknown[] | undefined;
  totalElements: number | undefined;
  totalPages: number | undefined;
}

/** One broken paging invariant, with the exchange that shows it. */
export interface Problem {
  message: string;
  expected: string;
  actual: string;
  exchange: Exchange;
}

/**
 * Judges one paged list operation: defaults, `size=1`, totals, a bounded walk over the first
 * pages (sizes, repeats, Link), the page past the end, and Link keeping a filter parameter.
 */
export async function judgePaging(
  ctx: RunContext,
  op: SpecOperation,
  target: ReadTarget,
  shape: ListShape,
  pageParam: OpenAPIV3.ParameterObject,
  sizeParam: OpenAPIV3.ParameterObject,
): Promise<Problem[]> {
  const problems: Problem[] = [];
  const problem = (exchange: Exchange, message: string, expected: string, actual?: string) =>
    problems.push({ message, expected, actual: actual ?? describe(exchange), exchange });
  const pageSchema = pageParam.schema as Schema;
  const sizeSchema = sizeParam.schema as Schema;
  const base = numeric(pageSchema.default) ?? numeric(pageSchema.minimum) ?? 0;
  const defaultSize = numeric(sizeSchema.default);
  const get = async (query: Record<string, unknown>): Promise<Page> => {
    const exchange = await ctx.call(op, {
      ...target.call,
      query: { ...target.call.query, ...query },
    });
    const body = jsonBody(exchange);
    const number = (name: string) =>
      isObject(body) && typeof body[name] === 'number' ? (body[name] as number) : undefined;
    return {
      exchange,
      body,
      items: exchange.response.status === 200 ? itemsOf(shape, body) : undefined,
      totalElements: number('totalElements'),
      totalPages: number('totalPages'),
    };
  };
  const totals = (p: Page, size: number) => {
    if (p.totalElements === undefined || p.totalPages === undefined) return;
    const expected = Math.ceil(p.totalElements / size);
    if (p.totalPages !== expected)
      problem(
        p.exchange,
        `totalPages ${p.totalPages} does not fit totalElements ${p.totalElements} at size ${size}`,
        `totalPages = ceil(${p.totalElements} / ${size}) = ${expected}`,
        `totalPages ${p.totalPages}`,
      );
  };

  const plain = await get({});
  if (!plain.items) {
    problem(
      plain.exchange,
      'the list without paging parameters gave no list of items',
      `200 with items`,
    );
    return problems;
  }
  if (defaultSize !== undefined) {
    if (plain.items.length > defaultSize)
      problem(
        plain.exchange,
        `without size, ${plain.items.length} items came`,
        `at most the default size ${defaultSize}`,
        `${plain.items.length} items`,
      );
    const echoed = isObject(plain.body) ? plain.body[sizeParam.name] : undefined;
    if (typeof echoed === 'number' && echoed !== defaultSize)
      problem(
        plain.exchange,
        `without size, the answer says size ${echoed}`,
        `size ${defaultSize} (the spec's default)`,
        `size ${echoed}`,
      );
    totals(plain, defaultSize);
  }

  const one = await get({ [sizeParam.name]: 1 });
  if (!one.items) problem(one.exchange, 'size=1 was refused', '200 with at most one item');
  else if (one.items.length > 1)
    problem(
      one.exchange,
      `size=1 gave ${one.items.length} items`,
      'at most 1 item',
      `${one.items.length} items`,
    );
  else totals(one, 1);

  const size = Math.min(WALK_SIZE, numeric(sizeSchema.maximum) ?? WALK_SIZE);
  const linked = documentedHeader(op, 200, 'Link') !== undefined;
  const first = await get({ [sizeParam.name]: size });
  const total = first.totalElements;
  const lastIndex =
    first.totalPages !== undefined ? base + Math.max(first.totalPages - 1, 0) : undefined;
  const walk = first.totalPages !== undefined ? Math.min(first.totalPages, WALK_PAGES) : WALK_PAGES;
  const seen = new Map<string, number>();
  const linkContext = { op, base, pageName: pageParam.name, lastIndex };
  for (let i = 0; i < walk; i++) {
    const index = base + i;
    const p = i === 0 ? first : await get({ [pageParam.name]: index, [sizeParam.name]: size });
    if (!p.items) {
      problem(p.exchange, `page ${index} at size ${size} gave no list of items`, '200 with items');
      break;
    }
    if (i === 0) totals(p, size);
    const expected =
      total !== undefined ? Math.max(0, Math.min(size, total - i * size)) : undefined;
    if (expected !== undefined && p.items.length !== expected)
      problem(
        p.exchange,
        `page ${index} at size ${size} holds ${p.items.length} items`,
        `${expected} of ${total} items`,
        `${p.items.length} items`,
      );
    for (const item of p.items) {
      const key = identity(item);
      const earlier = seen.get(key);
      if (earlier !== undefined)
        problem(
          p.exchange,
          `${key} appears on page ${earlier} and again on page ${index}`,
          'no item on two pages',
          key,
        );
      else seen.set(key, index);
    }
    if (linked)
      for (const message of pageLinkProblems(
        p.exchange,
        index,
        { [sizeParam.name]: String(size) },
        linkContext,
      ))
        problem(
          p.exchange,
          message,
          'a Link header as documented',
          p.exchange.headers.get('link') ?? '(no Link)',
        );
    if (first.totalPages === undefined && p.items.length < size) break;
  }

  if (first.totalPages !== undefined) {
    const past = base + Math.max(first.totalPages, 1);
    const beyond = await get({ [pageParam.name]: past, [sizeParam.name]: size });
    const status = beyond.exchange.response.status;
    const refusalAllowed =
      status !== 200 &&
      isDocumented(op, status) &&
      status < 500 &&
      !promisesEmptyPage(op, pageParam);
    if (!refusalAllowed && (!beyond.items || beyond.items.length > 0))
      problem(
        beyond.exchange,
        `page ${past}, past the last page ${lastIndex}, was not an empty 200`,
        '200 with no items',
      );
    else if (linked && status === 200)
      for (const message of pageLinkProblems(
        beyond.exchange,
        past,
        { [sizeParam.name]: String(size) },
        linkContext,
      ))
        problem(
          beyond.exchange,
          message,
          'a Link header as documented',
          beyond.exchange.headers.get('link') ?? '(no Link)',
        );
  }

  const filter = op.parameters.find(
    (p) => p.in === 'query' && (p.schema as Schema | undefined)?.enum?.length,
  );
  if (linked && filter) {
    const value = String((filter.schema as Schema).enum![0]);
    const filtered = await get({
      [pageParam.name]: base,
      [sizeParam.name]: size,
      [filter.name]: value,
    });
    if (filtered.exchange.response.status === 200) {
      const kept = { [sizeParam.name]: String(size), [filter.name]: value };
      for (const message of pageLinkProblems(filtered.exchange, base, kept, {
        ...linkContext,
        lastIndex: undefined,
      }))
        problem(
          filtered.exchange,
          message,
          `links keeping ${filter.name}=${value}`,
          filtered.exchange.headers.get('link') ?? '(no Link)',
        );
    }
  }
  return problems;
}

/** Whether the spec says that a page past the end is an (empty) page rather than an error. */
function promisesEmptyPage(op: SpecOperation, page: OpenAPIV3.ParameterObject): boolean {
  const text = `${op.operation.description ?? ''} ${page.description ?? ''}`;
  return /past the (last page|end)|beyond the (last page|end)/i.test(text);
}

function numeric(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
