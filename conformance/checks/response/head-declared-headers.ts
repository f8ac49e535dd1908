import type { OpenAPIV3 } from 'openapi-types';
import type { CheckFailure, ResponseCheck } from '../check.js';

/**
 * `head_declared_headers` (a response check): every HEAD answer carries the headers its GET
 * declares as required for the same status (RFC 9110 9.3.2: HEAD is GET without the content;
 * the interface document: "as GET, headers only, no body"). Judged on every HEAD of the run,
 * whatever sent it; that the values equal the GET's needs a GET beside it, which
 * head_matches_get sends for its own pair. Found by the mutation harness (issue 32): a HEAD
 * without `Vary` passed wherever no check compared it with a GET.
 */
export const headDeclaredHeaders: ResponseCheck = {
  kind: 'response',
  name: 'head_declared_headers',
  description: 'A HEAD answer carries every header its GET declares as required for that status',
  check(exchange, op, ctx): CheckFailure[] {
    if (exchange.request.method !== 'HEAD' || op.method !== 'get') return [];
    const status = exchange.response.status;
    const declared = ctx.validator.documented(op.operationId, status)?.headers ?? {};
    const missing = Object.entries(declared)
      .filter(([, header]) => (header as OpenAPIV3.HeaderObject).required === true)
      .map(([name]) => name)
      .filter((name) => !exchange.headers.has(name));
    if (missing.length === 0) return [];
    return [
      {
        message: `a HEAD answered ${status} without ${missing.join(', ')}, which GET declares as required`,
        expected: `the headers GET ${op.path} declares required for ${status}: ${missing.join(', ')}`,
        actual: '(absent)',
      },
    ];
  },
};
