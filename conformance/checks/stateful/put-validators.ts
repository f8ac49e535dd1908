import { isDeepStrictEqual } from 'node:util';
import type { ScenarioCheck } from '../check.js';
import { validBody } from '../support/round-trip-body.js';
import { freshTarget } from '../support/spec-links.js';
import {
  callAs,
  describe,
  documentedHeader,
  isSuccess,
  jsonBody,
  readerOf,
  requestSchema,
} from '../support/stateful-support.js';

const VALIDATORS = ['ETag', 'Last-Modified'];

/**
 * `put_validators`: a successful PUT whose stored representation is not the content it sent
 * (the GET afterwards answers something else: ids, timestamps, defaults added) carries no
 * validator, ETag or Last-Modified (RFC 9110 9.3.4: an origin server MUST NOT send one unless
 * the content was saved without any transformation). Where the PUT's answer documents a
 * validator the spec has decided otherwise, and the answer is left alone.
 */
export const putValidators: ScenarioCheck = {
  kind: 'scenario',
  name: 'put_validators',
  description:
    'A successful PUT whose content was stored transformed carries no ETag or Last-Modified (RFC 9110 9.3.4)',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => op.method === 'put' && requestSchema(op));
    if (ops.length === 0) return record.skip(undefined, 'no selected PUT takes a JSON body');
    await ctx.each(ops, async (op) => {
      const reader = readerOf(ctx, op);
      if (!reader) return record.skip(op, `no GET operation on ${op.path} reads what was stored`);
      const target = await freshTarget(ctx, op);
      if ('reason' in target) return record.skip(op, target.reason);
      const body = validBody(ctx, op);
      const put = await callAs(ctx, op, { ...target.call, body });
      const status = put.response.status;
      if (!isSuccess(status)) return record.skip(op, `a valid PUT was refused: ${describe(put)}`);
      const documented = VALIDATORS.filter((v) => documentedHeader(op, status, v));
      if (documented.length > 0)
        return record.skip(op, `its ${status} documents ${documented.join(' and ')}`);
      const sent = VALIDATORS.filter((v) => put.headers.get(v) !== null);
      if (sent.length === 0) return record.pass(op, `${status} without ETag or Last-Modified`, put);
      const read = await ctx.call(reader, target.call);
      if (read.response.status !== 200)
        return record.skip(op, `the resource could not be read back: ${describe(read)}`);
      if (isDeepStrictEqual(jsonBody(read), body))
        return record.pass(op, `stored as sent, so ${sent.join(' and ')} may be sent`, put);
      record.fail(
        op,
        {
          message: `a PUT whose content was stored transformed answered with ${sent.join(' and ')} (RFC 9110 9.3.4)`,
          expected: `${status} without ETag or Last-Modified`,
          actual: `${describe(put)}, ${sent.map((v) => `${v}: ${put.headers.get(v)}`).join(', ')}`,
        },
        put,
      );
    });
  },
};
