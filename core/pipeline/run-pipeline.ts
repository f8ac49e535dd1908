import type { ApiRequest, ApiResponse } from './api-types.js';
import { createExchange, type Exchange } from './exchange.js';
import { finishResponse } from './finish-response.js';
import type { PipelineEnv } from './pipeline-env.js';
import type { PipelineStep, StepAnswer } from './pipeline-step.js';
import { problemAnswer } from './problem-answer.js';

/**
 * Runs steps in order until one answers. Synchronous until a step returns a promise, awaiting
 * only such a step: an answer that needs no I/O (a 404, /healthz, a 406) costs no microtask.
 * Problems propagate (thrown, or as a rejection once a step awaited): the caller decides where
 * they become answers.
 *
 * @example
 * await runSteps(pipelineSteps.slice(0, 2), x, env); // routed, or a thrown 404
 */
export function runSteps(
  steps: readonly PipelineStep[],
  x: Exchange,
  env: PipelineEnv,
): StepAnswer | undefined | Promise<StepAnswer | undefined> {
  for (let i = 0; i < steps.length; i++) {
    const result = (steps[i] as PipelineStep)(x, env);
    if (result instanceof Promise) return awaitSteps(result, steps, i + 1, x, env);
    if (result) return result;
  }
  return undefined;
}

/** The rest of `runSteps` once a step returned a promise. */
async function awaitSteps(
  pending: Promise<StepAnswer | undefined>,
  steps: readonly PipelineStep[],
  next: number,
  x: Exchange,
  env: PipelineEnv,
): Promise<StepAnswer | undefined> {
  const answer = await pending;
  if (answer) return answer;
  for (let i = next; i < steps.length; i++) {
    const result = (steps[i] as PipelineStep)(x, env);
    const later = result instanceof Promise ? await result : result;
    if (later) return later;
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
    const result = runSteps(steps, x, env);
    answer =
      (result instanceof Promise ? await result : result) ??
      problemAnswer(new Error('the pipeline ended without an answer'), x, env);
  } catch (error) {
    answer = problemAnswer(error, x, env);
  }
  return finishResponse(x, answer, env.corsOrigins);
}
