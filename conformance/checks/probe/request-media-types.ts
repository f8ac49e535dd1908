import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Credential } from '../../auth-session.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { ScenarioCheck } from '../check.js';
import { deleteCreated } from '../support/spec-links.js';
import {
  bodyMediaType,
  credentialFor,
  describeResponse,
  pathParams,
} from '../support/probe-support.js';
import { documentedSuccesses, isSuccess } from '../support/stateful-support.js';

const isJsonType = (type: string) => /^[^;]*[/+]json\s*(;|$)/i.test(type);

/** The body to send in `type`: that media type's own example, else the first valid body. */
function bodyFor(ctx: RunContext, op: SpecOperation, type: string): unknown {
  const media = op.requestBody?.content[type];
  const named = Object.values(media?.examples ?? {})[0] as OpenAPIV3.ExampleObject | undefined;
  return media?.example ?? named?.value ?? ctx.generate.positiveBodies(op, 1)[0];
}

/** Sends `body` as `type`; what a producer created is deleted again at once. */
async function send(
  ctx: RunContext,
  op: SpecOperation,
  call: { path: Record<string, unknown>; body: unknown; type: string },
  credential: Credential,
): Promise<Exchange> {
  const exchange = await ctx.call(
    op,
    { path: call.path, body: call.body, contentType: call.type },
    credential,
  );
  if (isSuccess(exchange.response.status) && ctx.fixtures.isProducer(op))
    await deleteCreated(ctx, op, exchange, call.body, call.path);
  return exchange;
}

/**
 * documented_media_types: a request body documented in several media types (PATCH in
 * `application/json` and `application/merge-patch+json`) is accepted in each of them. The same
 * valid body goes first as the usual JSON type, then as every other JSON media type; when the
 * first is answered with a documented 2xx, each other must be too (a 415 fails). Media types
 * that are not JSON (XML, forms) are skipped: the runner cannot write them.
 */
export const documentedMediaTypes: ScenarioCheck = {
  kind: 'scenario',
  name: 'documented_media_types',
  description: 'A valid body is accepted in every JSON media type its request body documents',
  async run(ctx, record) {
    const ops = ctx.operations.filter(
      (op) => Object.keys(op.requestBody?.content ?? {}).length > 1,
    );
    if (ops.length === 0)
      return record.skip(undefined, 'no selected operation documents two request media types');
    await ctx.each(ops, async (op) => {
      const usual = bodyMediaType(op);
      if (!usual) return record.skip(op, 'none of its request media types is JSON');
      const others = Object.keys(op.requestBody!.content).filter((t) => t !== usual);
      const writable = others.filter(isJsonType);
      if (writable.length === 0)
        return record.skip(op, `${others.join(', ')}: not JSON, which the runner cannot write`);
      const credential = credentialFor(ctx, op);
      if (typeof credential === 'object' && 'reason' in credential)
        return record.skip(op, credential.reason);
      const params = await pathParams(ctx, op);
      if ('reason' in params) return record.skip(op, params.reason);
      const documented = documentedSuccesses(op);
      for (const type of writable) {
        if (ctx.stopped()) return;
        const body = bodyFor(ctx, op, type);
        const call = { path: params.parameters, body };
        const first = await send(ctx, op, { ...call, type: usual }, credential);
        if (!documented.includes(first.response.status))
          return record.skip(
            op,
            `the body was not accepted as ${usual} either (${describeResponse(first)}), so ${type} cannot be judged`,
          );
        const other = await send(ctx, op, { ...call, type }, credential);
        const status = other.response.status;
        if (status === 429)
          return record.skip(op, `the ${type} request was answered 429, not a verdict`);
        if (!documented.includes(status))
          return record.fail(
            op,
            {
              message: `a body accepted as ${usual} (${first.response.status}) was answered ${status} as ${type}, a documented request media type`,
              expected: `a documented 2xx (${documented.join(' or ')})`,
              actual: describeResponse(other),
            },
            other,
          );
      }
      record.pass(op, `accepted as ${[usual, ...writable].join(' and as ')}`);
    });
  },
};
