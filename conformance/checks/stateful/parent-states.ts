import {
  parentStates,
  requiredRole,
  stateMachine,
  type StateMachine,
} from '../../../spec/apikit-extensions.js';
import type { ScenarioCheck } from '../check.js';
import { moveTo, pathTo } from '../support/move-to-state.js';
import { createWith, deleteCreated, linkCall } from '../support/spec-links.js';
import { callAs, describe, isObject, isSuccess } from '../support/stateful-support.js';

/**
 * `parent_states`, where a create under another resource declares `x-apikit-parent-states`:
 * a parent made by the run is moved along its own state machine to each refused state it can
 * reach (blocking a user it made needs the admin credentials, nothing destructive), and the
 * create through the parent's link must answer the declared status. Anything made by a wrong
 * answer is deleted; the parent is left to cleanup.
 */
export const parentStatesCheck: ScenarioCheck = {
  kind: 'scenario',
  name: 'parent_states',
  description:
    'A create under a parent in a refused state (x-apikit-parent-states: an order for a BLOCKED user) answers the declared status',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => op.method === 'post' && parentStates(op));
    if (ops.length === 0)
      return record.skip(undefined, 'no selected create declares x-apikit-parent-states');
    for (const op of ops) {
      const declared = parentStates(op)!;
      const parents = ctx.fixtures.producersOf(op).filter((p) => stateMachine(p));
      const parent = parents[0];
      if (!parent) {
        record.skip(op, 'no create linking to it declares x-apikit-state-machine');
        continue;
      }
      const machine = stateMachine(parent) as StateMachine;
      const said: string[] = [];
      for (const state of declared.refused) {
        const made = await createWith(ctx, parent);
        if ('reason' in made) return record.skip(op, made.reason);
        const from = isObject(made.body) ? String(made.body[machine.field]) : '';
        const way = pathTo(machine, from, state);
        const needs = way
          ?.map((t) => ctx.operation(t.operation))
          .find((o) => o && requiredRole(o) !== undefined && !ctx.auth.has('admin'));
        if (!way || needs) {
          record.skip(
            op,
            needs
              ? `reaching ${state} needs ${needs.operationId}, which needs a role, and no admin credentials were given`
              : `no declared transition of ${parent.operationId} leads ${from} -> ${state}`,
          );
          continue;
        }
        const moved = way.length === 0 ? undefined : await moveTo(ctx, machine, made, from, state);
        if (moved && 'reason' in moved) {
          record.skip(op, moved.reason);
          continue;
        }
        const link = made.links.find((l) => l.target === op);
        const call = link
          ? linkCall(ctx, link)
          : { reason: `no link of ${parent.operationId} reaches it` };
        if ('reason' in call) {
          record.skip(op, call.reason);
          continue;
        }
        const res = await callAs(ctx, op, call);
        if (isSuccess(res.response.status))
          await deleteCreated(ctx, op, res, call.body, call.path ?? {});
        if (res.response.status !== declared.status) {
          record.fail(
            op,
            {
              message: `a create under a parent in ${state} was ${isSuccess(res.response.status) ? 'accepted' : 'not refused as declared'}`,
              expected: `${declared.status} (x-apikit-parent-states)`,
              actual: describe(res),
            },
            res,
          );
          return;
        }
        said.push(`under a ${state} parent: ${declared.status}`);
      }
      if (said.length > 0) record.pass(op, said.join('; '));
    }
  },
};
