import { stateMachine, writableIn } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import {
  guardedProducers,
  readResource,
  writeOneProperty,
  type OnePropertyWrite,
} from '../support/guarded-write.js';
import { readBackEvidence } from '../support/read-back.js';
import { createWith } from '../support/spec-links.js';
import { describe, isObject, isSuccess } from '../support/stateful-support.js';

/**
 * `judged_on_state_before`, where a create declares both `x-apikit-state-machine` and
 * `x-apikit-writable-in`, for each guarded write that is also a transition of the machine (an
 * order's PATCH): sent to a new resource, in a state where the write is allowed, with both a
 * move to a state where it is not and a change of one plain property, it is judged on the
 * state before it, so it is accepted and both changes are applied (contract page: "a PATCH is
 * judged on the state before it and applied all or nothing"). A target that judged the
 * state the write would leave refuses it with the guard's status. Resources go to cleanup.
 */
export const judgedOnStateBefore: ScenarioCheck = {
  kind: 'scenario',
  name: 'judged_on_state_before',
  description:
    'A write that leaves the states its change is allowed in, and makes that change, is judged on the state before it: accepted, both applied',
  async run(ctx, record) {
    const producers = guardedProducers(ctx);
    if (producers.length === 0)
      return record.skip(undefined, 'no selected create declares x-apikit-writable-in');
    await ctx.each(producers, async (producer) => {
      const machine = stateMachine(producer)!;
      const guard = writableIn(producer)!;
      for (const opId of guard.operations) {
        const op = ctx.operation(opId);
        if (!op || !ctx.operations.includes(op)) continue;
        const start = machine.initial;
        const leaving = machine.transitions.find(
          (t) =>
            t.operation === opId &&
            start !== undefined &&
            guard.states.includes(start) &&
            t.from.includes(start) &&
            !guard.states.includes(t.to),
        );
        if (!leaving) {
          record.skip(op, `no transition of it leaves ${guard.states.join(', ')} from the start`);
          continue;
        }
        const made = await createWith(ctx, producer);
        if ('reason' in made) return record.skip(op, made.reason);
        // A resource that starts elsewhere is state_transitions' to report, not this check's.
        const now = isObject(made.body) ? made.body[machine.field] : undefined;
        if (now !== start) {
          record.skip(op, `a new resource is ${String(now)}, not ${start}`);
          continue;
        }
        const sent = await writeOneProperty(ctx, made, op, machine, {
          [machine.field]: leaving.to,
        });
        if ('reason' in sent) return record.skip(op, sent.reason);
        const both = `${machine.field} ${start} -> ${leaving.to} and ${sent.name}`;
        if (!isSuccess(sent.res.response.status)) {
          record.fail(
            op,
            {
              message: `a write of ${both} was refused: judged on the state it would leave (${leaving.to}), not on the one before it`,
              expected: `a 2xx (judged on ${start}, where x-apikit-writable-in allows changing ${sent.name})`,
              actual: describe(sent.res),
            },
            sent.res,
          );
          continue;
        }
        judgeApplied(record, op, sent, await readResource(ctx, made), machine.field, leaving.to);
      }
    });
  },
};

/** Both changes of an accepted write are read back: all of it was applied. */
function judgeApplied(
  record: CheckRecorder,
  op: SpecOperation,
  sent: OnePropertyWrite,
  after: Awaited<ReturnType<typeof readResource>>,
  field: string,
  state: string,
): void {
  if (!after || !isObject(after.body))
    return record.skip(op, 'the resource could not be read back after the write');
  const body = after.body;
  if (body[field] === state && body[sent.name] === sent.value)
    return record.pass(op, `${field} ${state} and ${sent.name} set by one accepted write`);
  record.fail(
    op,
    {
      message: `an accepted write of ${field} ${state} and ${sent.name} was not applied as a whole`,
      expected: `${field}: ${state}, ${sent.name}: ${JSON.stringify(sent.value)}`,
      actual: readBackEvidence(
        sent.res,
        after.exchange,
        `${field}: ${JSON.stringify(body[field])}, ${sent.name}: ${JSON.stringify(body[sent.name])}`,
      ),
    },
    sent.res,
  );
}
