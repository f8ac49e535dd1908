import type { ApiRequest, ApiResponse } from './api-types.js';
import { createExchange, type Exchange } from './exchange.js';
import { finishResponse } from './finish-response.js';
import type { PipelineEnv } from './pipeline-env.js';
import type { PipelineStep, StepAnswer } from './pipeline-step.js';
import { problemAnswer } from './problem-answer.js';

/**
 * Runs steps in order until one answers, awaiting only a step that returned a promise.
 * Problems propagate: the caller decides where they become answers.
 *
 * @example
 * await runSteps(pipelineSteps.slice(0, 2), x, env); // routed, or a thrown 404
 */
export async function runSteps(
  steps: readonly PipelineStep[],
  x: Exchange,
  env: PipelineEnv,
): Promise<StepAnswer | undefined> {
  for (const step of steps) {
    const result = step(x, env);
    const answer = result instanceof Promise ? await result : result;
    if (answer) return answer;
  }
  return undefined;
}

/**
 * One request through the pipeline (Hono's `compose` without `next`, as Prism's factory runs
 * route -> validate -> mock): the first step that answers or throws ends it, a thrown failure
 * becomes problem+json, and every answer is finished the same way.
 *
 * @example
 * const res = await runPipeline(pipelineSteps, request, env);
 */
export async function runPipeline(
  steps: readonly PipelineStep[],
  request: ApiRequest,
  env: PipelineEnv,
): Promise<ApiResponse> {
  const x = createExchange(request);
  let answer: StepAnswer;
  try {
    answer =
      (await runSteps(steps, x, env)) ??
      problemAnswer(new Error('the pipeline ended without an answer'), x, env);
  } catch (error) {
    answer = problemAnswer(error, x, env);
  }
  return finishResponse(x, answer, env.corsOrigins);
}
