import { ApiProblem } from '../../domain/api-problem.js';
import type { Exchange } from '../exchange.js';
import type { PipelineEnv } from '../pipeline-env.js';

/**
 * 404 for a path no route of the spec matches. A route the adapter matched already (the mocks
 * route once, decision 0064) is taken as is.
 *
 * @example
 * matchRoute(x, env); // GET /api/v1/users/7: x.route.params is { id: '7' }
 */
export function matchRoute(x: Exchange, env: PipelineEnv): undefined {
  // serveOpenRoutes answered every path outside the API base.
  const match = x.request.route ?? env.routes.match(x.relative as string);
  if (!match) throw new ApiProblem('not-found', `No resource at ${x.request.path}`);
  x.route = match;
  return undefined;
}
