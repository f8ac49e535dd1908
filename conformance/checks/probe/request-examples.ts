import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../../spec/operations.js';
import type { ScenarioCheck } from '../check.js';
import { deleteCreated } from '../support/spec-links.js';
import { credentialFor, describeResponse, pathParams } from '../support/probe-support.js';
import { isSuccess } from '../support/stateful-support.js';

/** A named request example and the status its documented answer has. */
export interface PairedExample {
  name: string;
  mediaType: string;
  value: unknown;
  status: number;
}

/**
 * The operation's named request examples, each paired with its documented answer: the one
 * response status holding a response example of the same name (decision 0076). Examples with
 * no such response, or with several, are listed as unpaired.
 */
export function pairedExamples(op: SpecOperation): {
  paired: PairedExample[];
  unpaired: string[];
} {
  const paired: PairedExample[] = [];
  const unpaired: string[] = [];
  const statusesNaming = (name: string) =>
    Object.entries(op.responses)
      .filter(([, res]) =>
        Object.values(res.content ?? {}).some((media) => name in (media.examples ?? {})),
      )
      .map(([status]) => status);
  for (const [mediaType, media] of Object.entries(op.requestBody?.content ?? {})) {
    if (!/^[^;]*[/+]json\s*(;|$)/i.test(mediaType)) continue;
    for (const [name, example] of Object.entries(media.examples ?? {})) {
      const value = (example as OpenAPIV3.ExampleObject).value;
      const statuses = statusesNaming(name);
      if (value === undefined || statuses.length !== 1 || !/^\d{3}$/.test(statuses[0]!))
        unpaired.push(name);
      else paired.push({ name, mediaType, value, status: Number(statuses[0]) });
    }
  }
  return { paired, unpaired: [...new Set(unpaired)] };
}

/**
 * request_examples: every named request example that the spec pairs with an answer (a response
 * example of the same name, decision 0076) is sent as written, in its media type, at real path
 * parameters, and must get that answer's status: a 2xx as much as a documented 4xx (a wrong
 * password answered 401, not 404). Unpaired examples are left to positive_data_acceptance,
 * which only asks that they are not refused as invalid. Whatever a 2xx created is deleted.
 */
export const requestExamples: ScenarioCheck = {
  kind: 'scenario',
  name: 'request_examples',
  description:
    'Each named request example gets the status of the response example of the same name',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => op.requestBody);
    if (ops.length === 0) return record.skip(undefined, 'no selected operation takes a body');
    await ctx.each(ops, async (op) => {
      const { paired, unpaired } = pairedExamples(op);
      if (paired.length === 0)
        return record.skip(
          op,
          unpaired.length
            ? `no response example shares the name of its request example(s) ${unpaired.join(', ')}, so the spec names no answer for them`
            : 'it documents no named JSON request example',
        );
      const credential = credentialFor(ctx, op);
      if (typeof credential === 'object' && 'reason' in credential)
        return record.skip(op, credential.reason);
      const params = await pathParams(ctx, op);
      if ('reason' in params) return record.skip(op, params.reason);
      for (const example of paired) {
        if (ctx.stopped()) return;
        const call = { path: params.parameters, body: example.value };
        const exchange = await ctx.call(
          op,
          { ...call, contentType: example.mediaType },
          credential,
        );
        const status = exchange.response.status;
        if (isSuccess(status) && ctx.fixtures.isProducer(op))
          await deleteCreated(ctx, op, exchange, example.value, params.parameters);
        if (status === 429)
          return record.skip(op, `example ${example.name} was answered 429, not a verdict`);
        if (status !== example.status)
          return record.fail(
            op,
            {
              message: `request example ${example.name} (${example.mediaType}) was answered ${status}`,
              expected: `${example.status}, the status of the response example ${example.name}`,
              actual: describeResponse(exchange),
            },
            exchange,
          );
      }
      record.pass(
        op,
        `${paired.map((e) => `${e.name} -> ${e.status}`).join(', ')}${unpaired.length ? `; unpaired: ${unpaired.join(', ')}` : ''}`,
      );
    });
  },
};
