import { isDeepStrictEqual } from 'node:util';
import type { OpenAPIV3 } from 'openapi-types';
import { fixedCatalog } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { ScenarioCheck } from '../check.js';
import { credentialFor } from '../support/probe-support.js';
import { callFor, describe, isObject, jsonBody } from '../support/stateful-support.js';

/**
 * `fixed_catalog`, where a GET of a list declares `x-apikit-fixed-catalog`: it answers exactly
 * the first example of its 200 answer, and the GET of each entry (`item`) answers that entry.
 * Reads only, with any credential.
 */
export const fixedCatalogCheck: ScenarioCheck = {
  kind: 'scenario',
  name: 'fixed_catalog',
  description:
    'A catalog declared fixed (x-apikit-fixed-catalog) answers exactly its documented example, and each entry its own GET',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => op.method === 'get' && fixedCatalog(op));
    if (ops.length === 0)
      return record.skip(undefined, 'no selected list operation declares x-apikit-fixed-catalog');
    for (const op of ops) {
      const who = credentialFor(ctx, op);
      if (typeof who === 'object' && 'reason' in who) {
        record.skip(op, who.reason);
        continue;
      }
      const expected = firstExample(op);
      if (!Array.isArray(expected)) {
        record.skip(op, 'its 200 answer has no example of the whole catalog');
        continue;
      }
      const res = await ctx.call(op, {}, who);
      if (res.response.status !== 200 || !isDeepStrictEqual(jsonBody(res), expected)) {
        record.fail(
          op,
          {
            message: 'the fixed catalog is not the documented one',
            expected: `200 with ${JSON.stringify(expected)} (x-apikit-fixed-catalog)`,
            actual: `${describe(res)} ${res.response.body.slice(0, 300)}`,
          },
          res,
        );
        continue;
      }
      const itemOp = fixedCatalog(op)!.item;
      const item = itemOp ? ctx.operation(itemOp) : undefined;
      const param = item?.parameters.find((p) => p.in === 'path');
      if (!item || !param) {
        record.pass(op, `the catalog of ${expected.length} entries`);
        continue;
      }
      let wrong = false;
      for (const entry of expected) {
        if (!isObject(entry) || entry.id === undefined) continue;
        const one = await ctx.call(item, callFor(item, { [param.name]: entry.id }), who);
        if (one.response.status !== 200 || !isDeepStrictEqual(jsonBody(one), entry)) {
          record.fail(
            item,
            {
              message: `entry ${String(entry.id)} of the fixed catalog reads otherwise on its own`,
              expected: `200 with ${JSON.stringify(entry)} (x-apikit-fixed-catalog of ${op.operationId})`,
              actual: `${describe(one)} ${one.response.body.slice(0, 200)}`,
            },
            one,
          );
          wrong = true;
          break;
        }
      }
      if (!wrong) {
        record.pass(op, `the catalog of ${expected.length} entries`);
        record.pass(item, `each of the ${expected.length} entries of ${op.operationId}`);
      }
    }
  },
};

/** The first example of a GET's 200 answer: a fixed catalog's whole content. */
export function firstExample(op: SpecOperation): unknown {
  const media = Object.values(op.responses['200']?.content ?? {})[0] as
    OpenAPIV3.MediaTypeObject | undefined;
  if (media?.example !== undefined) return media.example;
  const first = Object.values(media?.examples ?? {})[0] as OpenAPIV3.ExampleObject | undefined;
  return first?.value;
}
