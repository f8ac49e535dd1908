import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import { identity, itemsOf, type ListShape } from './list-shape.js';
import { pageLinkProblems } from './page-links.js';
import { judgeContiguous, judgeEcho, judgeTotals, numeric } from './paging-clauses.js';
import type { ReadTarget } from './read-targets.js';
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

/** One paged list operation under judgement, and the problems found so far. */
interface Judgement {
  op: SpecOperation;
  pageParam: OpenAPIV3.ParameterObject;
  sizeParam: OpenAPIV3.ParameterObject;
  /** The index of the first page (the page parameter's default or minimum, else 0). */
  base: number;
  /** The page size of the bounded walk. */
  size: number;
  /** Whether the spec documents a Link header on the 200. */
  linked: boolean;
  get(query: Record<string, unknown>): Promise<Page>;
  problem(exchange: Exchange, message: string, expected: string, actual?: string): void;
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
  const pageSchema = pageParam.schema as Schema;
  const sizeSchema = sizeParam.schema as Schema;
  const j: Judgement = {
    op,
    pageParam,
    sizeParam,
    base: numeric(pageSchema.default) ?? numeric(pageSchema.minimum) ?? 0,
    size: Math.min(WALK_SIZE, numeric(sizeSchema.maximum) ?? WALK_SIZE),
    linked: documentedHeader(op, 200, 'Link') !== undefined,
    get: (query) => getPage(ctx, op, target, shape, query),
    problem: (exchange, message, expected, actual) =>
      problems.push({ message, expected, actual: actual ?? describe(exchange), exchange }),
  };
  const plain = await judgeDefaultPage(j, numeric(sizeSchema.default));
  if (!plain) return problems;
  await judgeSizeOne(j);
  const first = await j.get({ [sizeParam.name]: j.size });
  const lastIndex =
    first.totalPages !== undefined ? j.base + Math.max(first.totalPages - 1, 0) : undefined;
  const walked = await judgeWalk(j, first, lastIndex);
  judgeContiguous(j.problem, plain.exchange, plain.items ?? [], walked, j.base, j.size);
  if (first.totalPages !== undefined) await judgePastEnd(j, first.totalPages, lastIndex);
  await judgeFilterLinks(j);
  return problems;
}

/** One page of the list, with its items (on a 200) and the totals it states. */
async function getPage(
  ctx: RunContext,
  op: SpecOperation,
  target: ReadTarget,
  shape: ListShape,
  query: Record<string, unknown>,
): Promise<Page> {
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
}

/** The Link header of a page as documented (`expected` names what it must keep). */
function judgeLinks(
  j: Judgement,
  page: Exchange,
  index: number,
  kept: Record<string, string>,
  lastIndex: number | undefined,
  expected = 'a Link header as documented',
): void {
  const linkContext = { op: j.op, base: j.base, pageName: j.pageParam.name, lastIndex };
  for (const message of pageLinkProblems(page, index, kept, linkContext))
    j.problem(page, message, expected, page.headers.get('link') ?? '(no Link)');
}

/**
 * The list without paging parameters: a list of at most the default size, which it echoes.
 * False when it gave no list at all (nothing else is worth asking then).
 */
async function judgeDefaultPage(
  j: Judgement,
  defaultSize: number | undefined,
): Promise<Page | undefined> {
  const plain = await j.get({});
  if (!plain.items) {
    j.problem(
      plain.exchange,
      'the list without paging parameters gave no list of items',
      `200 with items`,
    );
    return undefined;
  }
  if (defaultSize === undefined) return plain;
  const full =
    plain.totalElements !== undefined ? Math.min(defaultSize, plain.totalElements) : undefined;
  if (plain.items.length > defaultSize || (full !== undefined && plain.items.length !== full))
    j.problem(
      plain.exchange,
      `without size, ${plain.items.length} items came`,
      full !== undefined
        ? `${full} items (the default size ${defaultSize}, of ${plain.totalElements})`
        : `at most the default size ${defaultSize}`,
      `${plain.items.length} items`,
    );
  const echoed = isObject(plain.body) ? plain.body[j.sizeParam.name] : undefined;
  if (typeof echoed === 'number' && echoed !== defaultSize)
    j.problem(
      plain.exchange,
      `without size, the answer says size ${echoed}`,
      `size ${defaultSize} (the spec's default)`,
      `size ${echoed}`,
    );
  judgeTotals(j.problem, plain, defaultSize);
  return plain;
}

/** `size=1` is a page of at most one item, with totals to match. */
async function judgeSizeOne(j: Judgement): Promise<void> {
  const one = await j.get({ [j.sizeParam.name]: 1 });
  if (!one.items) j.problem(one.exchange, 'size=1 was refused', '200 with at most one item');
  else if (one.items.length > 1)
    j.problem(
      one.exchange,
      `size=1 gave ${one.items.length} items`,
      'at most 1 item',
      `${one.items.length} items`,
    );
  else judgeTotals(j.problem, one, 1);
}

/** The first pages at the walk's size: their sizes, no item twice, the page they state, Link. */
async function judgeWalk(
  j: Judgement,
  first: Page,
  lastIndex: number | undefined,
): Promise<unknown[]> {
  const { size, base } = j;
  const walked: unknown[] = [];
  const total = first.totalElements;
  const walk = first.totalPages !== undefined ? Math.min(first.totalPages, WALK_PAGES) : WALK_PAGES;
  const seen = new Map<string, number>();
  for (let i = 0; i < walk; i++) {
    const index = base + i;
    const p =
      i === 0 ? first : await j.get({ [j.pageParam.name]: index, [j.sizeParam.name]: size });
    if (!p.items) {
      j.problem(
        p.exchange,
        `page ${index} at size ${size} gave no list of items`,
        '200 with items',
      );
      break;
    }
    if (i === 0) judgeTotals(j.problem, p, size);
    const expected =
      total !== undefined ? Math.max(0, Math.min(size, total - i * size)) : undefined;
    if (expected !== undefined && p.items.length !== expected)
      j.problem(
        p.exchange,
        `page ${index} at size ${size} holds ${p.items.length} items`,
        `${expected} of ${total} items`,
        `${p.items.length} items`,
      );
    judgeRepeats(j, p, index, seen);
    judgeEcho(j.problem, p.exchange, p.body, {
      [j.pageParam.name]: index,
      [j.sizeParam.name]: size,
    });
    walked.push(...p.items);
    if (j.linked) judgeLinks(j, p.exchange, index, { [j.sizeParam.name]: String(size) }, lastIndex);
    if (first.totalPages === undefined && p.items.length < size) break;
  }
  return walked;
}

/** No item of `page` was on an earlier page of the walk (`seen`: item → page index). */
function judgeRepeats(j: Judgement, page: Page, index: number, seen: Map<string, number>): void {
  for (const item of page.items ?? []) {
    const key = identity(item);
    const earlier = seen.get(key);
    if (earlier !== undefined)
      j.problem(
        page.exchange,
        `${key} appears on page ${earlier} and again on page ${index}`,
        'no item on two pages',
        key,
      );
    else seen.set(key, index);
  }
}

/** The page past the last is an empty 200, or a documented refusal the spec does not rule out. */
async function judgePastEnd(
  j: Judgement,
  totalPages: number,
  lastIndex: number | undefined,
): Promise<void> {
  const past = j.base + Math.max(totalPages, 1);
  const beyond = await j.get({ [j.pageParam.name]: past, [j.sizeParam.name]: j.size });
  const status = beyond.exchange.response.status;
  const refusalAllowed =
    status !== 200 &&
    isDocumented(j.op, status) &&
    status < 500 &&
    !promisesEmptyPage(j.op, j.pageParam);
  if (!refusalAllowed && (!beyond.items || beyond.items.length > 0))
    j.problem(
      beyond.exchange,
      `page ${past}, past the last page ${lastIndex}, was not an empty 200`,
      '200 with no items',
    );
  else if (j.linked && status === 200)
    judgeLinks(j, beyond.exchange, past, { [j.sizeParam.name]: String(j.size) }, lastIndex);
}

/** With a Link header and an enum filter, the links of a filtered page keep the filter. */
async function judgeFilterLinks(j: Judgement): Promise<void> {
  const filter = j.op.parameters.find(
    (p) => p.in === 'query' && (p.schema as Schema | undefined)?.enum?.length,
  );
  if (!j.linked || !filter) return;
  const value = String((filter.schema as Schema).enum![0]);
  const filtered = await j.get({
    [j.pageParam.name]: j.base,
    [j.sizeParam.name]: j.size,
    [filter.name]: value,
  });
  if (filtered.exchange.response.status !== 200) return;
  const kept = { [j.sizeParam.name]: String(j.size), [filter.name]: value };
  judgeLinks(
    j,
    filtered.exchange,
    j.base,
    kept,
    undefined,
    `links keeping ${filter.name}=${value}`,
  );
}

/** Whether the spec says that a page past the end is an (empty) page rather than an error. */
function promisesEmptyPage(op: SpecOperation, page: OpenAPIV3.ParameterObject): boolean {
  const text = `${op.operation.description ?? ''} ${page.description ?? ''}`;
  return /past the (last page|end)|beyond the (last page|end)/i.test(text);
}
