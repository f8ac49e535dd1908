import type { ScenarioCheck } from '../check.js';
import { freshTarget } from '../support/spec-links.js';
import { changeableProperty } from '../support/round-trip-body.js';
import {
  callAs,
  describe,
  differences,
  excerpt,
  isSuccess,
  jsonBody,
  readerOf,
  requestSchema,
  responseSchema,
  volatileProperties,
} from '../support/stateful-support.js';

/**
 * `patch_keeps_fields`: a PATCH changes what it sends and nothing else (RFC 5789, RFC 7396):
 * a body changing one writable property leaves every other property as a GET showed it
 * before (read-only timestamps aside).
 */
export const patchKeepsFields: ScenarioCheck = {
  kind: 'scenario',
  name: 'patch_keeps_fields',
  description: 'A PATCH of one property leaves every other property unchanged',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => op.method === 'patch' && requestSchema(op));
    if (ops.length === 0) {
      record.skip(undefined, 'no PATCH operation with a JSON body is selected');
      return;
    }
    await ctx.each(ops, async (op) => {
      const reader = readerOf(ctx, op);
      if (!reader) return record.skip(op, `no GET operation on ${op.path} to read the resource`);
      const target = await freshTarget(ctx, op);
      if ('reason' in target) return record.skip(op, target.reason);
      const before = await ctx.call(reader, target.call);
      if (before.response.status !== 200)
        return record.skip(op, `the resource could not be read: ${describe(before)}`);
      const change = changeableProperty(ctx, requestSchema(op), jsonBody(before));
      if (!change) return record.skip(op, 'no plain string or number property to change was found');
      const patch = await callAs(ctx, op, {
        ...target.call,
        body: { [change.name]: change.value },
      });
      if (!isSuccess(patch.response.status))
        return record.skip(op, `a valid one-property PATCH was refused: ${describe(patch)}`);
      const after = await ctx.call(reader, target.call);
      const ignored = volatileProperties(responseSchema(reader, 200));
      ignored.add(change.name);
      const changed = differences(jsonBody(before), jsonBody(after), ignored);
      if (changed.length > 0)
        return record.fail(
          op,
          {
            message: `PATCH of ${change.name} also changed ${changed.join(', ')}`,
            expected: excerpt(jsonBody(before), changed),
            actual: `${describe(after)} ${excerpt(jsonBody(after), changed)}`,
          },
          patch,
        );
      record.pass(op, `PATCH of ${change.name} left the other properties as they were`, patch);
    });
  },
};
