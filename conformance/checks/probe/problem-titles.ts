import { declaredHttp } from '../../../spec/apikit-extensions.js';
import type { ResponseCheck } from '../check.js';
import { parseJson } from '../support/probe-support.js';

/**
 * problem_type_title, where the spec declares `x-apikit-http.problemTitles`: a problem answer
 * whose `type` the spec lists carries that type's one title (RFC 9457 3.1.3: the title does not
 * change from occurrence to occurrence). Types the spec does not list are left to the schema.
 */
export const problemTypeTitle: ResponseCheck = {
  kind: 'response',
  name: 'problem_type_title',
  description: 'A problem of a declared type carries the one title the spec gives that type',
  check(exchange, _op, ctx) {
    if (exchange.response.status < 400) return [];
    const type = (exchange.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/problem+json') return [];
    const titles = declaredHttp(ctx.spec).problemTitles;
    const body = parseJson(exchange.response.body) as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object' || typeof body.type !== 'string') return [];
    const title = titles[body.type];
    if (title === undefined || body.title === title) return [];
    return [
      {
        message: `a problem of type ${body.type} has the title ${JSON.stringify(body.title)}`,
        expected: `title ${JSON.stringify(title)} (the spec's one title of ${body.type})`,
        actual: JSON.stringify(body.title) ?? '(absent)',
      },
    ];
  },
};
