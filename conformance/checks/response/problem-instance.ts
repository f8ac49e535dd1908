import { serverPath } from '../../../spec/service-extensions.js';
import type { CheckFailure, ResponseCheck } from '../check.js';
import { problemBody } from './problem-body.js';

/**
 * `problem_instance` (a response check): a problem's `instance` (RFC 9457) names the request
 * that got it: its path, without the query. Judged below the run's base path, so that a
 * target behind a gateway prefix is judged fairly: the instance is the request's path as
 * sent, or the part after the base under the path the spec's server URL declares (`/api/v1`);
 * a spec declaring none leaves only "ends in that part". Found by the mutation harness
 * (issue 32): an instance naming another resource passed every check that made no probe of
 * its own.
 */
export const problemInstance: ResponseCheck = {
  kind: 'response',
  name: 'problem_instance',
  description: "A problem's instance is the request's path (below the base), without the query",
  check(exchange, _op, ctx): CheckFailure[] {
    const body = problemBody(exchange);
    const instance = body?.['instance'];
    if (typeof instance !== 'string') return [];
    const path = new URL(exchange.request.url).pathname;
    const base = ctx.client.basePath;
    if (!path.startsWith(base)) return [];
    const below = path.slice(base.length);
    const declared = serverPath(ctx.spec);
    const fits = (text: string, request: string, rest: string) =>
      declared === undefined ? text.endsWith(rest) : text === request || text === declared + rest;
    if (
      fits(instance, path, below) ||
      fits(safeDecode(instance), safeDecode(path), safeDecode(below))
    )
      return [];
    return [
      {
        message: `the problem's instance does not name the request's path ${path}`,
        expected: `instance: ${JSON.stringify(declared === undefined ? `…${below}` : declared + below)}`,
        actual: `instance: ${JSON.stringify(instance)}`,
      },
    ];
  },
};

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
