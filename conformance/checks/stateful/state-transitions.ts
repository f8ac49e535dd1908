import { requiredRole, stateMachine, type StateMachine } from '../../../spec/apikit-extensions.js';
import { needsCredentials } from '../../../spec/operation-security.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { RunContext } from '../../run-context.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import { isSelected, linkTargets, roleCredential } from '../support/stateful-support.js';
import { type Edge, Walker } from './state-walker.js';

/**
 * `state_transitions`: where a creating POST declares `x-apikit-state-machine`, a new resource
 * starts in the initial state; every declared transition (by an operation the create links
 * to) answers a documented 2xx, an answer holding the state field shows the new state and the
 * read-back shows it too; and, in each state the walk reaches, every transition no rule allows
 * from it (each target of a setting operation, the action operations each once) answers the
 * refusal status and leaves the state as it was.
 * Each walk starts from a new resource, left to the fixtures' cleanup; the first failure ends
 * the walk of that machine.
 */
export const stateTransitions: ScenarioCheck = {
  kind: 'scenario',
  name: 'state_transitions',
  description:
    'The declared state machine (x-apikit-state-machine) holds: allowed transitions move the state, refused ones answer the refusal status and change nothing',
  async run(ctx, record) {
    const producers = ctx.operations.filter(
      (op) => op.method === 'post' && stateMachine(op) && ctx.fixtures.isProducer(op),
    );
    if (producers.length === 0)
      return record.skip(undefined, 'no selected creating POST declares x-apikit-state-machine');
    await ctx.each(producers, async (producer) => {
      const machine = stateMachine(producer) as StateMachine;
      const who = roleCredential(ctx, producer) === 'admin' ? 'admin' : 'user';
      if (needsCredentials(producer) && !ctx.auth.has(who))
        return record.skip(producer, `it needs credentials (${who}) and none were given`);
      const edges = usableEdges(ctx, record, producer, machine);
      if (edges.length === 0)
        return record.skip(producer, 'no declared transition is reachable by a selected link');
      await new Walker(ctx, record, producer, machine, edges).run();
    });
  },
};

/** The declared transitions, one per starting state, whose operation the run may call. */
function usableEdges(
  ctx: RunContext,
  record: CheckRecorder,
  producer: SpecOperation,
  machine: StateMachine,
): Edge[] {
  const linked = linkTargets(ctx, producer);
  const edges: Edge[] = [];
  const left = new Set<string>();
  for (const t of machine.transitions) {
    const op = linked.find((o) => o.operationId === t.operation);
    const why = !op
      ? 'no link of the create reaches it'
      : !isSelected(ctx, op)
        ? 'the operation is not selected'
        : requiredRole(op) !== undefined && !ctx.auth.has('admin')
          ? `it needs the role ${requiredRole(op)} and no admin credentials were given`
          : undefined;
    if (!op || why) {
      if (!left.has(t.operation))
        record.skip(op ?? producer, `transition ${t.operation} of ${producer.operationId}: ${why}`);
      left.add(t.operation);
      continue;
    }
    for (const from of t.from) edges.push({ op, from, to: t.to });
  }
  return edges;
}
