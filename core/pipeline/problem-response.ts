import { ApiProblem } from '../domain/api-problem.js';
import { problemTypeUri } from '../domain/problem-types.js';
import { StoreUnavailableError } from '../domain/store.js';
import { boundErrors, boundText, MAX_PROBLEM_DETAIL } from './bound-errors.js';

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

/**
 * Renders a problem as `application/problem+json` for the request at `instance`. Bounded
 * whatever the request held (decision 0106): a 400 lists its first entries and counts the rest
 * in `errorsOmitted`, and no text quoting the request (a pointer, a detail) runs on.
 */
export function renderProblem(
  problem: ApiProblem,
  instance: string,
  requestId: string,
): ProblemRendering {
  const body: Record<string, unknown> = {
    type: problemTypeUri(problem.slug),
    title: problem.title,
    status: problem.status,
    detail: boundText(problem.detail, MAX_PROBLEM_DETAIL),
    instance,
    requestId,
  };
  const entries =
    problem.errors ??
    (problem.status === 400 ? [{ pointer: '#', detail: problem.detail }] : undefined);
  if (entries) {
    const { errors, omitted } = boundErrors(entries);
    body.errors = errors;
    if (omitted > 0) body.errorsOmitted = omitted;
  }
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
