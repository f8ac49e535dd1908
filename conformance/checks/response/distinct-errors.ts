import { declaredHttp } from '../../../spec/http-extensions.js';
import type { CheckFailure, ResponseCheck } from '../check.js';
import { problemBody } from './problem-body.js';

/**
 * `distinct_errors` (a response check), where the spec declares `x-apikit-http.errorsLimit`
 * (the problem's list of violations): "one entry per violated constraint", so no two entries
 * of one answer are the same. Found by the mutation harness (issue 32): a duplicated entry
 * passed every check.
 */
export const distinctErrors: ResponseCheck = {
  kind: 'response',
  name: 'distinct_errors',
  description: "A problem's errors list each violated constraint once (no two entries alike)",
  check(exchange, _op, ctx): CheckFailure[] {
    if (!declaredHttp(ctx.spec).errorsLimit) return [];
    const errors = problemBody(exchange)?.['errors'];
    if (!Array.isArray(errors)) return [];
    const seen = new Set<string>();
    const twice = errors
      .map((e) => JSON.stringify(e))
      .filter((e) => seen.size === seen.add(e).size);
    if (twice.length === 0) return [];
    return [
      {
        message: `the problem's errors list ${twice.length} entr${twice.length === 1 ? 'y' : 'ies'} twice`,
        expected: 'one entry per violated constraint',
        actual: `repeated: ${twice.slice(0, 3).join(', ')}`,
      },
    ];
  },
};
