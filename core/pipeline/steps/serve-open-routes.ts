import { ApiProblem } from '../../domain/api-problem.js';
import type { Exchange } from '../exchange.js';
import { openRoute } from '../open-routes.js';
import type { PipelineEnv } from '../pipeline-env.js';
import type { StepAnswer } from '../pipeline-step.js';

/**
 * Outside the API base: `/healthz` and the contract documents answer here (their own 405);
 * any other path is 404, before its method is even looked at. Inside the base: hands on.
 *
 * @example
 * serveOpenRoutes(x, env)?.status; // GET /healthz: 200
 */
export function serveOpenRoutes(x: Exchange, env: PipelineEnv): StepAnswer | undefined {
  if (x.relative !== undefined) return undefined;
  const open = openRoute(x.request.path, x.method, env.documents);
  if (!open) throw new ApiProblem('not-found', `No resource at ${x.request.path}`);
  return open;
}
