import type { SpecOperation } from '../spec/operations.js';
import type { ResponseCheck } from './checks/check.js';
import type { PlannedRequest, TargetClient } from './http/target-client.js';
import type { ResultCollector } from './result-collector.js';
import type { RunContext } from './run-context.js';
import type { RunScope } from './run-scope.js';

/** Names the operation a request is sent for, when its method and path might say another. */
export type AttributeRequest = (planned: PlannedRequest, op: SpecOperation) => void;

/**
 * Every answer the target gives the run is judged by the response checks (decision 0129), not
 * only those of ctx.call: a probe's, the setup's, a fixture's cleanup, a 429 waited out and
 * retried. A request is attributed to the operation its sender named, else to the one its
 * method and path address (HEAD to the path's GET); one addressing none (an unknown method or
 * path) is the sending check's alone to judge. `ctx` is read when an answer comes.
 *
 * @example
 * const attribute = judgeEveryAnswer({ client, scope, collector, responseChecks }, () => ctx);
 * attribute(planned, op); // before client.send(planned)
 */
export function judgeEveryAnswer(
  run: {
    client: TargetClient;
    scope: RunScope;
    collector: ResultCollector;
    responseChecks: ResponseCheck[];
  },
  ctx: () => RunContext,
): AttributeRequest {
  const { scope, collector, responseChecks } = run;
  const attributedTo = new WeakMap<PlannedRequest, SpecOperation>();
  run.client.listen((exchange, planned) => {
    const op = attributedTo.get(planned) ?? scope.operationOf(planned);
    if (op && scope.unavailable(op) === undefined)
      collector.observe(op, exchange, responseChecks, (check) => check.check(exchange, op, ctx()));
  });
  return (planned, op) => attributedTo.set(planned, op);
}
