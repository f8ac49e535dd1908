import type { ApiOptions } from './api-options.js';
import type { ApiRequest, ApiResponse } from './api-types.js';
import { createPipelineEnv } from './pipeline-env.js';
import { pipelineSteps } from './pipeline-steps.js';
import { runPipeline } from './run-pipeline.js';

export type { ApiOptions } from './api-options.js';

/** The API as one function from request to response, for any transport. */
export interface Api {
  handle(request: ApiRequest): Promise<ApiResponse>;
}

/**
 * Builds the HTTP semantics of the contract over the domain services, transport-agnostic:
 * the Express server and the MSW handlers are thin adapters over `handle`. Each request runs
 * through `pipelineSteps`, the contract's order of checks as a list of named steps.
 *
 * @example
 * const api = createApi({ ctx, spec: await loadSpec(), documents });
 * const res = await api.handle({ method: 'GET', path: '/healthz', query: '', headers: new Headers(), body: null });
 */
export function createApi(options: ApiOptions): Api {
  const env = createPipelineEnv(options);
  return {
    handle: (request) => runPipeline(pipelineSteps, request, env),
  };
}
