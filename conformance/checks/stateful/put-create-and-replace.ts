import { stateMachine } from '../../../spec/apikit-extensions.js';
import type { ScenarioCheck } from '../check.js';
import { deleteLinkOf, follow, freshTarget } from '../support/spec-links.js';
import { validBody } from '../support/round-trip-body.js';
import {
  callAs,
  describe,
  documentedSuccesses,
  isObject,
  isSuccess,
  jsonBody,
  requestSchema,
} from '../support/stateful-support.js';

/**
 * `put_create_and_replace`: a PUT that documents 201 besides 200 or 204 gives each of them
 * where RFC 9110 9.3.4 says: a valid PUT at an existing resource replaces it (200/204, not
 * 201); the same PUT at that id once the resource is deleted creates it there (201). The id
 * is one the target allocated itself and freed, never one the runner makes up: a PUT-create at
 * an id of the runner's choosing would move the target's id counter for good (decision 0076).
 * Where the resource's create declares a state machine, the resource a PUT creates starts in
 * its initial state too (decision 0080). The resource made again is left to the fixtures'
 * cleanup, which deletes it.
 */
export const putCreateAndReplace: ScenarioCheck = {
  kind: 'scenario',
  name: 'put_create_and_replace',
  description:
    'A PUT documenting 201 replaces an existing resource with 200/204 and creates at a freed id with 201',
  async run(ctx, record) {
    const ops = ctx.operations.filter(
      (op) => op.method === 'put' && '201' in op.responses && requestSchema(op),
    );
    if (ops.length === 0)
      return record.skip(undefined, 'no selected PUT with a JSON body documents 201');
    await ctx.each(ops, async (op) => {
      const replacing = documentedSuccesses(op).filter((s) => s !== 201);
      if (replacing.length === 0)
        return record.skip(op, 'it documents 201 only, no status for replacing');
      const target = await freshTarget(ctx, op);
      if ('reason' in target) return record.skip(op, target.reason);
      const remove = deleteLinkOf(target.resource);
      if (!remove || remove.target.path !== op.path)
        return record.skip(
          op,
          `no DELETE on ${op.path} frees an id of the target's own, and PUT at a made-up id would move its id counter`,
        );
      const replaced = await callAs(ctx, op, { ...target.call, body: validBody(ctx, op) });
      if (!isSuccess(replaced.response.status))
        return record.skip(op, `a valid PUT was refused: ${describe(replaced)}`);
      if (!replacing.includes(replaced.response.status))
        return record.fail(
          op,
          {
            message: 'a PUT at an existing resource did not answer as replacing it',
            expected: replacing.join(' or '),
            actual: describe(replaced),
          },
          replaced,
        );
      const deleted = await follow(ctx, remove);
      if ('reason' in deleted) return record.skip(op, deleted.reason);
      if (!isSuccess(deleted.response.status))
        return record.skip(op, `the resource could not be deleted: ${describe(deleted)}`);
      const created = await callAs(ctx, op, { ...target.call, body: validBody(ctx, op, 1) });
      target.resource.deleted = !isSuccess(created.response.status);
      if (created.response.status !== 201)
        return record.fail(
          op,
          {
            message: 'a PUT at the id of a deleted resource did not create it there',
            expected: '201 (the spec documents 201 for a PUT that creates)',
            actual: describe(created),
          },
          created,
        );
      const machine = stateMachine(target.resource.producer);
      const made = jsonBody(created);
      const state = isObject(made) ? made[machine?.field ?? ''] : undefined;
      if (machine?.initial && state !== machine.initial)
        return record.fail(
          op,
          {
            message: `a resource a PUT created is in state ${String(state)}, not the initial state`,
            expected: `${machine.field}: ${machine.initial} (x-apikit-state-machine of ${target.resource.producer.operationId})`,
            actual: `${describe(created)} ${created.response.body.slice(0, 300)}`,
          },
          created,
        );
      record.pass(
        op,
        `${replaced.response.status} at an existing resource, 201 at its id once deleted${machine?.initial ? `, in ${machine.initial}` : ''}`,
        created,
      );
    });
  },
};
