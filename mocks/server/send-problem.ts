import type { ServerResponse } from 'node:http';
import { API_BASE, apiRelativePath } from '../../core/pipeline/api-paths.js';
import { corsHeaders } from '../../core/pipeline/cors-policy.js';
import { renderProblem } from '../../core/pipeline/problem-response.js';
import { ApiProblem } from '../../core/domain/api-problem.js';

/** The contract's 500 for a fault of `apikit mock`'s adapter itself, naming the request id. */
export function internalError(requestId: string): ApiProblem {
  return new ApiProblem(
    'internal-error',
    `An unexpected error occurred; quote request id ${requestId} when reporting it`,
  );
}

/**
 * A problem `apikit mock` answers itself (a method a Fetch Request cannot carry, a path the
 * mocks let pass, a refused answer), rendered as the pipeline renders its problems and readable
 * cross-origin like every answer of the mocks.
 */
export function sendProblem(
  res: ServerResponse,
  origin: string | undefined,
  method: string,
  path: string,
  requestId: string,
  problem: ApiProblem,
  extra?: Record<string, unknown>,
): void {
  const relative = apiRelativePath(path);
  const rendered = renderProblem(
    problem,
    relative === undefined ? path : API_BASE + relative,
    requestId,
  );
  const body = extra ? JSON.stringify({ ...JSON.parse(rendered.body), ...extra }) : rendered.body;
  res.statusCode = rendered.status;
  for (const [name, value] of Object.entries(rendered.headers)) res.setHeader(name, value);
  // Readable cross-origin like every answer of the pipeline (the mocks allow any origin).
  for (const [name, value] of Object.entries(corsHeaders('*', origin ?? null)))
    res.setHeader(name, value);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.setHeader('X-Request-Id', requestId);
  res.end(method === 'HEAD' ? undefined : body);
}
