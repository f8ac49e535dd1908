import { ApiProblem } from '../../domain/api-problem.js';
import { routeOf, type Exchange } from '../exchange.js';
import { handlerFor } from '../handlers/operation-handlers.js';
import type { PipelineEnv } from '../pipeline-env.js';

const KNOWN_METHODS = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'CONNECT',
]);

/**
 * 501 for a method HTTP does not know, 405 (with Allow) for one the route does not take; else
 * the operation (HEAD is GET's), its handler and its validators (compiled on first use: the
 * only time this step returns a promise).
 *
 * @example
 * selectOperation(x, env); // GET /api/v1/users/7: x.selected.operation.operationId is 'getUser'
 */
export function selectOperation(x: Exchange, env: PipelineEnv): undefined | Promise<undefined> {
  const { route } = routeOf(x);
  const method = x.method;
  if (!KNOWN_METHODS.has(method)) {
    throw new ApiProblem(
      'not-implemented',
      `The method ${method} is not implemented by this server`,
    );
  }
  const operation = route.operations.get(method === 'HEAD' ? 'GET' : method);
  if (!operation) {
    throw new ApiProblem(
      'method-not-allowed',
      `${method} is not supported on ${route.template}; use ${route.allow}`,
      { headers: { Allow: route.allow } },
    );
  }
  x.operationId = operation.operationId;
  const handler = handlerFor(operation.operationId);
  if (!handler) throw new Error(`no handler for operation ${operation.operationId}`);
  const parsers = env.parsersOf(operation);
  if (!(parsers instanceof Promise)) {
    x.selected = { operation, handler, parsers };
    return undefined;
  }
  return parsers.then((compiled) => {
    x.selected = { operation, handler, parsers: compiled };
    return undefined;
  });
}
