import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import { matchesDeclared } from '../probe/routing.js';

/** Statuses by which a target says it has no such route (or method) at all. */
const NO_ROUTE_STATUSES = new Set([404, 405, 501]);

/** An answer reduced to what stays the same from one request to another of the same handler. */
export interface AnswerShape {
  status: number;
  /** The media type without parameters, lower-case ('' when none). */
  mediaType: string;
  /** The body with the request's path and method, ids, dates and numbers masked. */
  body: string;
}

/**
 * The shape of an answer: the request's own path (with and without its query, raw and
 * HTML-escaped, with and without the base path) and method masked, then what differs per
 * request (UUIDs, dates, long hex, digits), so that two answers of one handler compare equal.
 *
 * @example
 * answerShape(exchange, '/api/v1'); // { status: 404, mediaType: 'text/html', body: 'Cannot <method> <path>' }
 */
export function answerShape(exchange: Exchange, basePath: string): AnswerShape {
  const url = new URL(exchange.request.url);
  const below = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : '';
  const spellings = [
    exchange.request.url,
    url.pathname + url.search,
    url.pathname,
    below + url.search,
    below,
  ]
    .filter((s) => s.length > 1)
    .flatMap((s) => [s, escapeHtml(s), safeDecode(s)]);
  let body = exchange.response.body;
  for (const spelling of [...new Set(spellings)].sort((a, b) => b.length - a.length))
    body = body.split(spelling).join('<path>');
  body = body
    .split(exchange.request.method)
    .join('<method>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
    .replace(/\d{4}-\d{2}-\d{2}[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?/g, '<date>')
    .replace(/\b[0-9a-f]{16,}\b/gi, '<hex>')
    .replace(/\d+/g, '#');
  const mediaType = (exchange.headers.get('content-type') ?? '').split(';')[0]!.trim();
  return { status: exchange.response.status, mediaType: mediaType.toLowerCase(), body };
}

/** Whether two shapes are one handler's answer. */
export function sameShape(a: AnswerShape, b: AnswerShape): boolean {
  return a.status === b.status && a.mediaType === b.mediaType && a.body === b.body;
}

/**
 * Whether an answer to a request of `op` says the route is not there: the target's own answer
 * to a path the spec does not have (`noRoute`), with a status that says so, or a 405/501 the
 * spec does not document for `op` (a path routed for other methods only, a generated stub).
 */
export function answersNoRoute(
  op: SpecOperation,
  shape: AnswerShape,
  noRoute: AnswerShape | undefined,
): boolean {
  if (!NO_ROUTE_STATUSES.has(shape.status)) return false;
  if (noRoute && sameShape(shape, noRoute)) return true;
  return shape.status !== 404 && !documents(op, shape.status);
}

/** Whether `op` documents `status` (exactly, by its range, or through `default`). */
export function documents(op: SpecOperation, status: number): boolean {
  const code = String(status);
  return code in op.responses || `${code[0]}XX` in op.responses || 'default' in op.responses;
}

/** A path below the base that no template of the spec matches. */
export function unknownPath(ctx: RunContext): string {
  let path = '/apikit-no-such-route';
  while (matchesDeclared(ctx, path)) path += '/apikit-no-such-route';
  return path;
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
