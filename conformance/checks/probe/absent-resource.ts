import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../../spec/operations.js';
import { statusProbe } from './expect-status.js';
import { validCall } from '../support/probe-support.js';
import type { Schema } from '../../../spec/schema/effective-schema.js';
import { createSchemaValidator } from '../../../spec/schema/schema-validator.js';
import type { RunContext } from '../../run-context.js';

/** The last path parameter: the resource the operation names (its parents come before it). */
const lastPathParameter = (op: SpecOperation) =>
  op.parameters.filter((p) => p.in === 'path').at(-1);

/**
 * An id no real resource has: the largest the spec allows (or 2^53-1), so nothing the run
 * or anyone else created can hold it; a string `absent-<uuid>`, or where the parameter's
 * schema refuses that (a pattern, a length), a generated value it allows (decision 0116).
 */
export function absentValue(ctx: RunContext, param: OpenAPIV3.ParameterObject): unknown {
  const schema = param.schema as OpenAPIV3.SchemaObject | undefined;
  if (schema?.type === 'integer' || schema?.type === 'number')
    return schema.maximum ?? Number.MAX_SAFE_INTEGER;
  const absent = `absent-${crypto.randomUUID()}`;
  return schema && validator.check(schema as Schema, absent) === false
    ? ctx.generate.value(schema)
    : absent;
}

const validator = createSchemaValidator();

/**
 * absent_resource: operations that document 404 answer 404 when the resource named by their
 * last path parameter does not exist (the parents real, from fixtures; the body valid). A PUT
 * that may create at a client-chosen id (it documents 201) is not probed: creating at the
 * largest id would move the target's id counter for good.
 */
export const absentResource = statusProbe({
  name: 'absent_resource',
  description: 'An absent resource is answered 404 where the spec documents 404',
  status: 404,
  skip(op) {
    if (!lastPathParameter(op)) return 'it has no path parameter';
    if (op.method === 'options') return 'OPTIONS describes the path, not a resource';
    if (op.method === 'put' && '201' in op.responses) {
      return "a PUT that creates at a client-chosen id would move the target's id counter";
    }
    return undefined;
  },
  call(ctx, op, params) {
    const last = lastPathParameter(op)!;
    return validCall(ctx, op, {
      ...params,
      parameters: { ...params.parameters, [last.name]: absentValue(ctx, last) },
    });
  },
  sent: (call) =>
    `an absent resource (${Object.values(call.path ?? {})
      .map(String)
      .join('/')})`,
});
