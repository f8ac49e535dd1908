import { ApiProblem } from '../../domain/api-problem.js';
import { describe } from '../body-parser.js';
import { routeOf, selectedOf, type Exchange } from '../exchange.js';
import type { PipelineEnv } from '../pipeline-env.js';
import { NO_PRECONDITION, type Precondition } from '../../domain/precondition.js';
import { checkPreconditions } from '../render-result.js';
import { isUnsafeMethod } from '../unsafe-method.js';

/**
 * 400 listing every violation of the path, query and header parameters; else the handler's
 * input (its body still to come) and the Idempotency-Key, converted by the spec's schemas.
 *
 * @example
 * parseParameters(x, env); // GET /api/v1/users?page=05: throws a 400 at #/query/page
 */
export function parseParameters(x: Exchange, env: PipelineEnv): undefined {
  const { parsers } = selectedOf(x);
  const { request } = x;
  const parsed = parsers.parameters.parse(routeOf(x).params, request.query, request.headers);
  if (parsed.errors.length > 0) {
    throw new ApiProblem('validation-failed', describe(parsed.errors), { errors: parsed.errors });
  }
  x.input = {
    ctx: env.ctx,
    principal: x.principal,
    path: parsed.path,
    query: parsed.query,
    body: undefined,
    precondition: preconditionOf(x),
    // serveOpenRoutes answered every path outside the API base.
    apiPath: x.relative as string,
    rawQuery: request.query,
  };
  x.idempotencyKey = parsed.header['Idempotency-Key'] as string | undefined;
  return undefined;
}

function preconditionOf({ method, request }: Exchange): Precondition {
  const { headers } = request;
  if (!isUnsafeMethod(method) || (!headers.has('if-match') && !headers.has('if-none-match'))) {
    return NO_PRECONDITION;
  }
  return (current) => checkPreconditions(headers, current);
}
