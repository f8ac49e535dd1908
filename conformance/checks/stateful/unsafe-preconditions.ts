import type { OperationCall } from '../../http/build-request.js';
import type { Exchange } from '../../http/target-client.js';
import type { ScenarioCheck } from '../check.js';
import { readBackEvidence } from '../support/read-back.js';
import { validBody } from '../support/round-trip-body.js';
import { deleteLinkOf, follow, freshTarget } from '../support/spec-links.js';
import {
  callAs,
  describe,
  isSuccess,
  readerOf,
  requestSchema,
  writesDocumenting412,
} from '../support/stateful-support.js';
import { conditionalWriteTarget } from './if-match-precondition.js';

const ANY_TAG = '"apikit-conformance-any-tag"';

/**
 * `if_none_match_write`: on a PUT, PATCH or DELETE documenting 412, `If-None-Match: *` and
 * `If-None-Match` with the current ETag both match an existing resource, so the request is
 * refused with 412 and changes nothing (RFC 9110 13.1.2: on a method other than GET or HEAD a
 * false If-None-Match is 412). The resource is one the run made for this check alone.
 */
export const ifNoneMatchWrite: ScenarioCheck = {
  kind: 'scenario',
  name: 'if_none_match_write',
  description:
    'On PUT, PATCH and DELETE, If-None-Match that matches (* or the current ETag) answers 412 and changes nothing',
  async run(ctx, record) {
    const ops = writesDocumenting412(ctx, record);
    if (ops.length === 0) return;
    await ctx.each(ops, async (op) => {
      const found = await conditionalWriteTarget(ctx, op);
      if ('reason' in found) return record.skip(op, found.reason);
      const { reader, target, before, etag, body } = found;
      let refused: Exchange | undefined;
      for (const tag of ['*', etag]) {
        const sent = (refused = await callAs(ctx, op, {
          ...target.call,
          headers: { ...target.call.headers, 'If-None-Match': tag },
          ...(body !== undefined ? { body } : {}),
        } satisfies OperationCall));
        if (sent.response.status === 412) continue;
        if (isSuccess(sent.response.status) && op.method === 'delete')
          target.resource.deleted = true;
        return record.fail(
          op,
          {
            message: `If-None-Match: ${tag} matches the existing resource, yet the ${op.method.toUpperCase()} was not refused with 412 (RFC 9110 13.1.2)`,
            expected: `412 for If-None-Match: ${tag} (current ETag ${etag})`,
            actual: describe(sent),
          },
          sent,
        );
      }
      const after = await ctx.call(reader, target.call);
      if (after.response.status !== 200 || after.headers.get('etag') !== etag)
        return record.fail(
          op,
          {
            message: 'a request refused with 412 changed the resource all the same',
            expected: `200 with ETag ${etag}`,
            actual: readBackEvidence(
              refused!,
              after,
              `(ETag ${after.headers.get('etag') ?? '(none)'})`,
            ),
          },
          refused,
        );
      record.pass(op, `412 for If-None-Match: * and for the current ETag; nothing changed`);
    });
  },
};

/**
 * `put_if_match_absent`: a PUT documenting 201 (it may create) and 412, sent with `If-Match`
 * at the id of a resource the run made and deleted, is refused with 412 and creates nothing
 * (RFC 9110 13.1.1: If-Match is false when there is no current representation). The id is
 * one the target allocated and freed, as in `put_create_and_replace`; whatever a broken
 * target creates there is left to the fixtures' cleanup.
 */
export const putIfMatchAbsent: ScenarioCheck = {
  kind: 'scenario',
  name: 'put_if_match_absent',
  description:
    'A PUT with If-Match at an absent id answers 412 and creates nothing (a PUT documenting 201 and 412)',
  async run(ctx, record) {
    const puts = ctx.operations.filter((op) => op.method === 'put' && requestSchema(op));
    const ops = puts.filter((op) => '201' in op.responses && '412' in op.responses);
    for (const op of puts.filter((o) => !ops.includes(o)))
      record.skip(op, 'it does not document both 201 and 412');
    if (ops.length === 0) return record.skip(undefined, 'no selected PUT documents 201 and 412');
    await ctx.each(ops, async (op) => {
      const reader = readerOf(ctx, op);
      if (!reader) return record.skip(op, `no GET operation on ${op.path} reads the resource`);
      const target = await freshTarget(ctx, op);
      if ('reason' in target) return record.skip(op, target.reason);
      const remove = deleteLinkOf(target.resource);
      if (!remove || remove.target.path !== op.path)
        return record.skip(op, `no DELETE on ${op.path} frees an id of the target's own`);
      const deleted = await follow(ctx, remove);
      if ('reason' in deleted) return record.skip(op, deleted.reason);
      if (!isSuccess(deleted.response.status))
        return record.skip(op, `the resource could not be deleted: ${describe(deleted)}`);
      target.resource.deleted = true;
      let refused: Exchange | undefined;
      for (const tag of ['*', ANY_TAG]) {
        const sent = (refused = await callAs(ctx, op, {
          ...target.call,
          headers: { ...target.call.headers, 'If-Match': tag },
          body: validBody(ctx, op),
        }));
        if (isSuccess(sent.response.status)) target.resource.deleted = false; // cleanup deletes it
        if (sent.response.status !== 412)
          return record.fail(
            op,
            {
              message: `a PUT with If-Match: ${tag} at an absent id was not refused with 412 (RFC 9110 13.1.1: no current representation matches)`,
              expected: '412, and nothing created',
              actual: describe(sent),
            },
            sent,
          );
      }
      const after = await ctx.call(reader, target.call);
      if (isSuccess(after.response.status)) {
        target.resource.deleted = false;
        return record.fail(
          op,
          {
            message: 'a PUT refused with 412 created the resource all the same',
            expected: 'the resource still absent (404)',
            actual: readBackEvidence(refused!, after),
          },
          refused,
        );
      }
      record.pass(op, 'If-Match: * and a made-up tag at an absent id: 412, nothing created');
    });
  },
};
