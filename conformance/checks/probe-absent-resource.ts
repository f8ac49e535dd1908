import type { ScenarioCheck } from './check.js';
import { credentialFor, describeResponse, pathParams, validCall } from './probe-support.js';

/**
 * An id no real resource has: the largest the spec allows (or 2^53-1), so nothing the run
 * or anyone else created can hold it.
 */
function absentValue(schema: { type?: string; maximum?: number } | undefined): unknown {
  if (schema?.type === 'integer' || schema?.type === 'number')
    return schema.maximum ?? Number.MAX_SAFE_INTEGER;
  return `absent-${crypto.randomUUID()}`;
}

/**
 * absent_resource: operations that document 404 answer 404 when the resource named by their
 * last path parameter does not exist (the parents real, from fixtures; the body valid). A PUT
 * that may create at a client-chosen id (it documents 201) is not probed: creating at the
 * largest id would move the target's id counter for good.
 */
export const absentResource: ScenarioCheck = {
  kind: 'scenario',
  name: 'absent_resource',
  description: 'An absent resource is answered 404 where the spec documents 404',
  async run(ctx, record) {
    await ctx.each(ctx.operations, async (op) => {
      const pathParameters = op.parameters.filter((p) => p.in === 'path');
      const last = pathParameters[pathParameters.length - 1];
      if (!last) return record.skip(op, 'it has no path parameter');
      if (!('404' in op.responses)) return record.skip(op, 'the spec documents no 404 for it');
      if (op.method === 'options')
        return record.skip(op, 'OPTIONS describes the path, not a resource');
      if (op.method === 'put' && '201' in op.responses) {
        return record.skip(
          op,
          "a PUT that creates at a client-chosen id would move the target's id counter",
        );
      }
      const credential = credentialFor(ctx, op);
      if (typeof credential === 'object' && 'reason' in credential)
        return record.skip(op, credential.reason);
      const params = await pathParams(ctx, op);
      if ('reason' in params) return record.skip(op, params.reason);
      if (ctx.stopped()) return;
      const absent = absentValue(last.schema as { type?: string; maximum?: number } | undefined);
      const call = validCall(ctx, op, {
        ...params,
        parameters: { ...params.parameters, [last.name]: absent },
      });
      const exchange = await ctx.call(op, call, credential);
      const status = exchange.response.status;
      if (status === 429 || status >= 500)
        return record.skip(op, `the answer was ${status}, not a verdict on absence`);
      if (status !== 404) {
        return record.fail(
          op,
          {
            message: `${last.name}=${String(absent)} (absent) was answered ${status}`,
            expected: '404',
            actual: describeResponse(exchange),
          },
          exchange,
        );
      }
      record.pass(op, `an absent ${last.name} answered 404`);
    });
  },
};
