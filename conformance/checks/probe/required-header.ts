import type { OpenAPIV3 } from 'openapi-types';
import type { ScenarioCheck } from '../check.js';
import {
  credentialFor,
  describeResponse,
  exampleValue,
  pathParams,
  validCall,
} from '../support/probe-support.js';

/** Header parameters OpenAPI 3.0 says are ignored (they are set by other means). */
const IGNORED = new Set(['accept', 'content-type', 'authorization']);

const requiredHeaders = (parameters: OpenAPIV3.ParameterObject[]) =>
  parameters.filter((p) => p.in === 'header' && p.required && !IGNORED.has(p.name.toLowerCase()));

/** A valid value for a header parameter: its example, else one generated from its schema. */
function headerValue(
  ctx: Parameters<ScenarioCheck['run']>[0],
  param: OpenAPIV3.ParameterObject,
): string {
  const example = exampleValue(param);
  if (example !== undefined) return String(example);
  return String(ctx.generate.value((param.schema ?? { type: 'string' }) as OpenAPIV3.SchemaObject));
}

/**
 * missing_required_header: a request without one of the operation's required header
 * parameters (all else valid, the other required headers present) is refused with a 4xx.
 */
export const missingRequiredHeader: ScenarioCheck = {
  kind: 'scenario',
  name: 'missing_required_header',
  description: 'A request missing a required header parameter is refused with 4xx',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => requiredHeaders(op.parameters).length > 0);
    if (ops.length === 0)
      return record.skip(undefined, 'no selected operation declares a required header parameter');
    await ctx.each(ops, async (op) => {
      const credential = credentialFor(ctx, op);
      if (typeof credential === 'object' && 'reason' in credential)
        return record.skip(op, credential.reason);
      const params = await pathParams(ctx, op, { shared: true });
      if ('reason' in params) return record.skip(op, params.reason);
      const required = requiredHeaders(op.parameters);
      const all = Object.fromEntries(required.map((p) => [p.name, headerValue(ctx, p)]));
      const statuses: number[] = [];
      for (const omitted of required) {
        if (ctx.stopped()) return;
        const headers = Object.fromEntries(
          Object.entries(all).filter(([name]) => name !== omitted.name),
        );
        const exchange = await ctx.call(op, { ...validCall(ctx, op, params), headers }, credential);
        const status = exchange.response.status;
        statuses.push(status);
        if (status < 400) {
          return record.fail(
            op,
            {
              message: `a request without the required header ${omitted.name} was answered ${status}`,
              expected: 'a 4xx',
              actual: describeResponse(exchange),
            },
            exchange,
          );
        }
      }
      if (statuses.every((s) => s >= 500))
        return record.skip(op, 'the server failed (5xx) on every request');
      record.pass(op, `refused without ${required.map((p) => p.name).join(', ')}`);
    });
  },
};
