import { isDeepStrictEqual } from 'node:util';
import type { SpecOperation } from '../../../spec/operations.js';
import type { OperationCall } from '../../http/build-request.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { ScenarioCheck } from '../check.js';
import { readBackEvidence } from '../support/read-back.js';
import { freshTarget } from '../support/spec-links.js';
import { changeableProperty, roundTripBody } from '../support/round-trip-body.js';
import {
  callAs,
  describe,
  isDocumented,
  isSuccess,
  jsonBody,
  readerOf,
  requestSchema,
  writesDocumenting412,
} from '../support/stateful-support.js';

const NO_SUCH_ETAG = '"apikit-conformance-no-such-etag"';

/**
 * `if_match_precondition`: on operations documenting 412, `If-Match` with a tag that is not
 * the current one answers 412 and changes nothing (RFC 9110 13.1.1), and the same request
 * with the current ETag goes through.
 */
export const ifMatchPrecondition: ScenarioCheck = {
  kind: 'scenario',
  name: 'if_match_precondition',
  description:
    'If-Match with a stale tag answers 412 and leaves the resource unchanged; with the current ETag the request succeeds',
  async run(ctx, record) {
    const ops = writesDocumenting412(ctx, record);
    if (ops.length === 0) return;
    await ctx.each(ops, async (op) => {
      const found = await conditionalWriteTarget(ctx, op);
      if ('reason' in found) return record.skip(op, found.reason);
      const { reader, target, before, etag, body } = found;
      if (etag.startsWith('W/'))
        return record.skip(op, `the ETag ${etag} is weak, and If-Match compares strongly`);
      const send = (tag: string) =>
        callAs(ctx, op, {
          ...target.call,
          headers: { ...target.call.headers, 'If-Match': tag },
          ...(body !== undefined ? { body } : {}),
        } satisfies OperationCall);

      const stale = await send(NO_SUCH_ETAG);
      if (stale.response.status !== 412)
        return record.fail(
          op,
          {
            message: 'If-Match with a tag that is not the current ETag was not refused with 412',
            expected: `412 for If-Match: ${NO_SUCH_ETAG} (current ETag ${etag})`,
            actual: describe(stale),
          },
          stale,
        );
      const after = await ctx.call(reader, target.call);
      if (
        after.response.status !== 200 ||
        after.headers.get('etag') !== etag ||
        !isDeepStrictEqual(jsonBody(after), jsonBody(before))
      )
        return record.fail(
          op,
          {
            message: 'the request refused with 412 changed the resource all the same',
            expected: `200, ETag ${etag}, ${before.response.body}`,
            actual: readBackEvidence(
              stale,
              after,
              `(ETag ${after.headers.get('etag') ?? '(none)'}) ${after.response.body}`,
            ),
          },
          stale,
        );
      const current = await send(etag);
      const status = current.response.status;
      if (isSuccess(status)) {
        if (op.method === 'delete') target.resource.deleted = true;
        return record.pass(op, `412 for a stale tag, ${status} for the current ETag`, current);
      }
      if (status !== 412 && status < 500 && isDocumented(op, status))
        return record.skip(
          op,
          `412 for a stale tag; with the current ETag it answered ${status}, refused for another reason`,
        );
      record.fail(
        op,
        {
          message: 'If-Match with the current ETag did not let the request through',
          expected: `2xx for If-Match: ${etag}`,
          actual: describe(current),
        },
        current,
      );
    });
  },
};

/** A valid body that would change the resource (undefined: the operation takes none). */
interface ConditionalWriteTarget {
  reader: SpecOperation;
  target: Exclude<Awaited<ReturnType<typeof freshTarget>>, { reason: string }>;
  before: Exchange;
  etag: string;
  body: unknown;
}

/**
 * What a precondition check of a write needs: a resource of its own (made for this check),
 * the GET that reads it, that GET's answer and ETag, and a valid body that would change it
 * (undefined for a write without a body); or why there is none.
 *
 * @example
 * const found = await conditionalWriteTarget(ctx, op);
 * if ('reason' in found) return record.skip(op, found.reason);
 */
export async function conditionalWriteTarget(
  ctx: RunContext,
  op: SpecOperation,
): Promise<ConditionalWriteTarget | { reason: string }> {
  const reader = readerOf(ctx, op);
  if (!reader) return { reason: `no GET operation on ${op.path} gives the current ETag` };
  const target = await freshTarget(ctx, op);
  if ('reason' in target) return { reason: target.reason };
  const before = await ctx.call(reader, target.call);
  const etag = before.headers.get('etag');
  if (before.response.status !== 200 || !etag)
    return { reason: `the resource's GET gave no ETag: ${describe(before)}` };
  const body = changingBody(ctx, op, jsonBody(before));
  if (body === null) return { reason: 'no valid body that changes the resource was found' };
  return { reader, target, before, etag, body };
}

export function changingBody(ctx: RunContext, op: SpecOperation, current: unknown): unknown {
  const schema = requestSchema(op);
  if (!schema) return undefined;
  const change = changeableProperty(ctx, schema, current);
  if (!change) return null;
  if (op.method === 'patch') return { [change.name]: change.value };
  return { ...roundTripBody(ctx, schema, current, false), [change.name]: change.value };
}
