import { isDeepStrictEqual } from 'node:util';
import { serviceDeclaration } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { RunContext } from '../../run-context.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import { changeableProperty, writableProperties } from '../support/round-trip-body.js';
import { freshTarget } from '../support/spec-links.js';
import { readBackEvidence } from '../support/read-back.js';
import {
  callAs,
  describe,
  isObject,
  isSuccess,
  jsonBody,
  readerOf,
  requestSchema,
} from '../support/stateful-support.js';
import { statusTally } from '../support/probe-support.js';

/** How many PATCHes are sent at once, at most (one property each). */
const AT_ONCE = 4;

/** One new value for each of up to `AT_ONCE` writable properties of the representation. */
function changes(
  ctx: RunContext,
  op: SpecOperation,
  current: Record<string, unknown>,
): { name: string; value: unknown }[] {
  const found: { name: string; value: unknown }[] = [];
  for (const [name, schema] of Object.entries(writableProperties(requestSchema(op)))) {
    const one = changeableProperty(
      ctx,
      { type: 'object', properties: { [name]: schema } },
      current,
    );
    if (one) found.push(one);
    if (found.length === AT_ONCE) break;
  }
  return found;
}

async function judge(
  ctx: RunContext,
  record: CheckRecorder,
  op: SpecOperation,
  reader: SpecOperation,
) {
  const target = await freshTarget(ctx, op);
  if ('reason' in target) return record.skip(op, target.reason);
  const before = await ctx.call(reader, target.call);
  const current = jsonBody(before);
  if (before.response.status !== 200 || !isObject(current))
    return record.skip(op, `the resource could not be read: ${describe(before)}`);
  const planned = changes(ctx, op, current);
  if (planned.length < 2)
    return record.skip(op, 'fewer than two writable properties to change one each at once');
  const sent = await Promise.all(
    planned.map((c) => callAs(ctx, op, { ...target.call, body: { [c.name]: c.value } })),
  );
  if (!sent.every((e) => isSuccess(e.response.status)))
    return record.skip(
      op,
      `not every PATCH was accepted (${statusTally(sent.map((e) => e.response.status))}): nothing to compare`,
    );
  const after = await ctx.call(reader, target.call);
  const now = jsonBody(after);
  if (after.response.status !== 200 || !isObject(now))
    return record.skip(op, `the resource could not be read again: ${describe(after)}`);
  const lost = planned.filter((c) => !isDeepStrictEqual(now[c.name], c.value));
  if (lost.length > 0) {
    // The PATCH whose change was lost is the request to show; the GET is its evidence.
    const cause = sent[planned.indexOf(lost[0]!)]!;
    return record.fail(
      op,
      {
        message: `${planned.length} PATCHes of different properties sent at once, all accepted: ${lost.map((c) => c.name).join(', ')} lost`,
        expected: planned.map((c) => `${c.name}: ${JSON.stringify(c.value)}`).join(', '),
        actual: readBackEvidence(
          cause,
          after,
          lost.map((c) => `${c.name}: ${JSON.stringify(now[c.name])}`).join(', '),
        ),
      },
      cause,
    );
  }
  record.pass(
    op,
    `${planned.length} PATCHes at once (${planned.map((c) => c.name).join(', ')}): none lost`,
  );
}

/**
 * `serialized_writes`, where the spec declares `x-apikit-service.serializedWrites`: on a
 * resource made for it, one PATCH per writable property (up to four), sent at once, each
 * accepted, all hold when the resource is read afterwards: no write was lost to another's
 * stale read. A PATCH refused (a reference that does not exist, say) leaves nothing to judge.
 */
export const serializedWrites: ScenarioCheck = {
  kind: 'scenario',
  name: 'serialized_writes',
  description:
    'PATCHes of different properties of one resource sent at once all hold afterwards (x-apikit-service.serializedWrites)',
  async run(ctx, record) {
    if (!serviceDeclaration(ctx.spec).serializedWrites)
      return record.skip(undefined, 'the spec does not declare x-apikit-service.serializedWrites');
    const ops = ctx.operations.filter((op) => op.method === 'patch' && requestSchema(op));
    if (ops.length === 0) return record.skip(undefined, 'no PATCH operation with a JSON body');
    for (const op of ops) {
      const reader = readerOf(ctx, op);
      if (!reader) record.skip(op, `no GET operation on ${op.path} to read the resource`);
      else await judge(ctx, record, op, reader);
    }
  },
};
