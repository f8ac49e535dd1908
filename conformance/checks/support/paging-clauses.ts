import type { Exchange } from '../../http/target-client.js';
import { identity } from './list-shape.js';
import { isObject } from './stateful-support.js';

/** Records one broken paging invariant (see paging-judge.ts). */
export type ProblemSink = (
  exchange: Exchange,
  message: string,
  expected: string,
  actual?: string,
) => void;

/**
 * The pages of the walk (`walked`, their items one after the other, at `size` from page
 * `base`) are the head of the list without paging parameters (`head`): the first page by
 * default, each page where it belongs, nothing skipped.
 */
export function judgeContiguous(
  problem: ProblemSink,
  plain: Exchange,
  head: unknown[],
  walked: unknown[],
  base: number,
  size: number,
): void {
  const n = Math.min(head.length, walked.length);
  for (let i = 0; i < n; i++) {
    if (identity(walked[i]) === identity(head[i])) continue;
    const page = base + Math.floor(i / size);
    problem(
      plain,
      `item ${i + 1} of the list is ${identity(walked[i])} on page ${page} at size ${size}, but ${identity(head[i])} without paging parameters`,
      'page p at size s holds items p*s+1 to p*s+s of the list; no page parameter: the first page',
      `${identity(walked[i])} vs ${identity(head[i])}`,
    );
    return;
  }
}

/** The page and size a page states (as its parameters are named) are the ones asked for. */
export function judgeEcho(
  problem: ProblemSink,
  exchange: Exchange,
  body: unknown,
  asked: Record<string, number>,
): void {
  const query = Object.entries(asked)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  for (const [param, value] of Object.entries(asked)) {
    const echoed = isObject(body) ? body[param] : undefined;
    if (typeof echoed === 'number' && echoed !== value)
      problem(
        exchange,
        `${query} answered ${param} ${echoed}`,
        `${param} ${value}, as asked`,
        `${param} ${echoed}`,
      );
  }
}

/** totalPages fits totalElements at the size asked for (when the page states both). */
export function judgeTotals(
  problem: ProblemSink,
  p: { exchange: Exchange; totalElements: number | undefined; totalPages: number | undefined },
  size: number,
): void {
  if (p.totalElements === undefined || p.totalPages === undefined) return;
  const expected = Math.ceil(p.totalElements / size);
  if (p.totalPages !== expected)
    problem(
      p.exchange,
      `totalPages ${p.totalPages} does not fit totalElements ${p.totalElements} at size ${size}`,
      `totalPages = ceil(${p.totalElements} / ${size}) = ${expected}`,
      `totalPages ${p.totalPages}`,
    );
}

export function numeric(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
