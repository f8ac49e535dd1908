import { StoreUnavailableError } from '../domain/store.js';
import type { Exchange } from './exchange.js';
import type { PipelineEnv } from './pipeline-env.js';
import type { StepAnswer } from './pipeline-step.js';
import { renderProblem, toApiProblem } from './problem-response.js';

/**
 * The one place a failure becomes an answer: the pipeline's own checks and the operation's
 * result (which an Idempotency-Key remembers, problems included) both come here. A 500 is
 * reported to `onUnexpectedError`, a store that is unavailable (503) to `onUnavailable`; a
 * client error never is.
 *
 * @example
 * problemAnswer(new ApiProblem('not-found', 'No user 7'), x, env).status; // 404
 */
export function problemAnswer(error: unknown, x: Exchange, env: PipelineEnv): StepAnswer {
  const problem = toApiProblem(error, x.requestId);
  if (problem.status === 500) env.onUnexpectedError?.(error, x.requestId);
  if (error instanceof StoreUnavailableError) env.onUnavailable?.(error, x.requestId);
  return renderProblem(problem, x.instance, x.requestId);
}
