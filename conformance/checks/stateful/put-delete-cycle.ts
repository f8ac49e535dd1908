import type { SpecOperation } from '../../../spec/operations.js';
import type { RunContext } from '../../run-context.js';
import type { ScenarioCheck } from '../check.js';
import {
  credentialFor,
  describeResponse,
  pathParams,
  validCall,
} from '../support/probe-support.js';
import { documentedSuccesses } from '../support/stateful-support.js';

/** The selected DELETEs no creating POST links to, each with the PUT of its path. */
function cycles(ctx: RunContext): { put: SpecOperation; remove: SpecOperation }[] {
  return ctx.operations
    .filter((op) => op.method === 'delete' && ctx.fixtures.producersOf(op).length === 0)
    .flatMap((remove) => {
      const put = ctx.allOperations.find((o) => o.method === 'put' && o.path === remove.path);
      return put ? [{ put, remove }] : [];
    });
}

/**
 * `put_delete_cycle`: where what a DELETE removes is made by a PUT at the same path (a role
 * given to a user) rather than by a linked POST, which `delete_twice` follows: the PUT twice
 * succeeds both times (RFC 9110 9.3.4, idempotent), the DELETE then answers a documented 2xx,
 * and the same DELETE again 404 where documented. The cycle ends where it began.
 */
export const putDeleteCycle: ScenarioCheck = {
  kind: 'scenario',
  name: 'put_delete_cycle',
  description:
    'What a PUT makes at a path, the PUT repeated keeps, a DELETE there removes (2xx), and a second DELETE finds gone (404)',
  async run(ctx, record) {
    const found = cycles(ctx);
    if (found.length === 0)
      return record.skip(undefined, 'no selected DELETE without a link has a PUT at its path');
    await ctx.each(found, async ({ put, remove }) => {
      const deleted = documentedSuccesses(remove);
      if (deleted.length === 0) return record.skip(remove, 'it documents no 2xx');
      const credential = credentialFor(ctx, put);
      if (typeof credential === 'object' && 'reason' in credential)
        return record.skip(remove, credential.reason);
      const params = await pathParams(ctx, put);
      if ('reason' in params) return record.skip(remove, params.reason);
      const call = validCall(ctx, put, params);
      const first = await ctx.call(put, call, credential);
      if (!documentedSuccesses(put).includes(first.response.status))
        return record.skip(remove, `the PUT did not succeed: ${describeResponse(first)}`);
      const again = await ctx.call(put, call, credential);
      if (again.response.status !== first.response.status)
        return record.fail(
          put,
          {
            message: `the same PUT again answered ${again.response.status} (PUT is idempotent)`,
            expected: `${first.response.status}, as the first time`,
            actual: describeResponse(again),
          },
          again,
        );
      const target = { path: params.parameters };
      const removed = await ctx.call(remove, target, credential);
      if (!deleted.includes(removed.response.status))
        return record.fail(
          remove,
          {
            message: 'a DELETE of what the PUT at the same path made did not succeed',
            expected: deleted.join(' or '),
            actual: describeResponse(removed),
          },
          removed,
        );
      if (!('404' in remove.responses))
        return record.pass(
          remove,
          `PUT ${first.response.status} twice, DELETE ${removed.response.status}`,
        );
      const gone = await ctx.call(remove, target, credential);
      if (gone.response.status !== 404)
        return record.fail(
          remove,
          {
            message: 'the same DELETE again did not find it gone',
            expected: `404 (the first DELETE answered ${removed.response.status})`,
            actual: describeResponse(gone),
          },
          gone,
        );
      record.pass(
        remove,
        `PUT ${first.response.status} twice, DELETE ${removed.response.status}, then 404`,
        gone,
      );
    });
  },
};
