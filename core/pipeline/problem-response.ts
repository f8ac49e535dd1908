import { ApiProblem } from '../domain/api-problem.js';
import { problemTypeUri } from '../domain/problem-types.js';
import { StoreUnavailableError } from '../domain/store.js';

export interface ProblemRendering {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The one error sink: anything thrown while handling a request becomes an RFC 9457 problem.
 * ApiProblems keep their kind; a store that cannot persist is 503 with Retry-After; anything
 * else is a bug, reported as a 500 that names only the request id (never a stack or a path).
 */
export function toApiProblem(error: unknown, requestId: string): ApiProblem {
  if (error instanceof ApiProblem) return error;
  if (error instanceof StoreUnavailableError) {
    return new ApiProblem(
      'service-unavailable',
      'The data store is unavailable right now; try again shortly',
      {
        headers: { 'Retry-After': String(error.retryAfterSeconds) },
      },
    );
  }
  return new ApiProblem(
    'internal-error',
    `An unexpected error occurred; quote request id ${requestId} when reporting it`,
  );
}

/** Renders a problem as `application/problem+json` for the request at `instance`. */
export function renderProblem(
  problem: ApiProblem,
  instance: string,
  requestId: string,
): ProblemRendering {
  const body: Record<string, unknown> = {
    type: problemTypeUri(problem.slug),
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    instance,
    requestId,
  };
  if (problem.errors) body.errors = problem.errors;
  else if (problem.status === 400) body.errors = [{ pointer: '#', detail: problem.detail }];
  return {
    status: problem.status,
    headers: {
      'Content-Type': 'application/problem+json',
      'Cache-Control': 'no-store',
      ...problem.headers,
    },
    body: JSON.stringify(body),
  };
}
