import type { DomainContext } from '../../domain/ports.js';
import { inputOf, selectedOf, type Exchange } from '../exchange.js';
import type { AnswerWithWrite } from '../idempotency.js';
import type { PipelineEnv } from '../pipeline-env.js';
import type { StepAnswer } from '../pipeline-step.js';
import { problemAnswer } from '../problem-answer.js';
import { renderResult } from '../render-result.js';

/**
 * The domain call and its answer: the handler's result rendered (ETag, Location, 304), or its
 * problem (the domain's 409/422). With an Idempotency-Key the answer, problem or not, is
 * remembered and replayed; a key reused with another body is 422, one still in flight 409.
 * A handler that says what its write `answers` has the key's answer committed in that
 * write's own transaction (decision 0109).
 *
 * @example
 * (await runOperation(x, env)).status; // GET /api/v1/users/2 by its owner: 200
 */
export function runOperation(x: Exchange, env: PipelineEnv): Promise<StepAnswer> {
  const { handler } = selectedOf(x);
  const input = inputOf(x);
  const execute = async (ctx: DomainContext = input.ctx): Promise<StepAnswer> => {
    try {
      return renderResult(await handler.run({ ...input, ctx }), x.method, x.request.headers);
    } catch (error) {
      return problemAnswer(error, x, env);
    }
  };
  const key = x.idempotencyKey;
  if (!key || !input.principal) return execute();
  const scope = `${input.principal.userId} ${x.method} ${x.instance} ${key}`;
  const answers = handler.answers?.bind(handler);
  return env.idempotency.run(scope, input.body, (answerWithWrite: AnswerWithWrite) => {
    if (!answers) return execute();
    const repo = answerWithWrite((written) =>
      renderResult(answers(written), x.method, x.request.headers),
    );
    return execute({ ...input.ctx, repo });
  });
}
