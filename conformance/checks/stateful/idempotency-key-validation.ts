import { randomUUID } from 'node:crypto';
import { declaredHttp, uniqueFields } from '../../../spec/apikit-extensions.js';
import type { Exchange } from '../../http/target-client.js';
import type { ScenarioCheck } from '../check.js';
import { validBody } from '../support/round-trip-body.js';
import { deleteCreated, freshTarget } from '../support/spec-links.js';
import {
  callAs,
  describe,
  isObject,
  isSuccess,
  parameter,
  requestSchema,
  requiredOf,
} from '../support/stateful-support.js';

const HEADER = 'Idempotency-Key';

/**
 * `idempotency_key_validation`, where `x-apikit-http` declares `idempotencyAfterValidation`:
 * an answer to a request that failed validation (400) is not remembered under its
 * `Idempotency-Key`, so the same key with a valid body is carried out (2xx), neither the 400
 * replayed nor refused as a key reused with another body.
 */
export const idempotencyKeyValidation: ScenarioCheck = {
  kind: 'scenario',
  name: 'idempotency_key_validation',
  description:
    'Where x-apikit-http declares idempotencyAfterValidation, a key first sent with an invalid body (400) is free for a valid one',
  async run(ctx, record) {
    if (!declaredHttp(ctx.spec).idempotencyAfterValidation)
      return record.skip(undefined, 'x-apikit-http does not declare idempotencyAfterValidation');
    const ops = ctx.operations.filter((op) => parameter(op, 'header', HEADER));
    if (ops.length === 0)
      return record.skip(undefined, `no operation declares an ${HEADER} header`);
    await ctx.each(ops, async (op) => {
      const name = parameter(op, 'header', HEADER)!.name;
      const required = requiredOf(requestSchema(op))[0];
      const body = validBody(ctx, op);
      if (required === undefined || !isObject(body))
        return record.skip(op, 'its body has no required property to leave out');
      let path: Record<string, unknown> = {};
      if (op.parameters.some((p) => p.in === 'path')) {
        const made = await freshTarget(ctx, op);
        if ('reason' in made) return record.skip(op, made.reason);
        path = made.call.path ?? {};
      }
      const key = `apikit-conformance-${randomUUID()}`;
      const send = (b: unknown) => callAs(ctx, op, { path, headers: { [name]: key }, body: b });
      const invalid = Object.fromEntries(Object.entries(body).filter(([k]) => k !== required));
      const refused = await send(invalid);
      if (refused.response.status !== 400)
        return record.skip(
          op,
          `a body without ${required} was not refused with 400: ${describe(refused)}`,
        );
      let valid: Exchange | undefined;
      try {
        valid = await send(body);
        const status = valid.response.status;
        if (isSuccess(status))
          return record.pass(
            op,
            `400 without ${required}, then ${status} with the same key`,
            valid,
          );
        record.fail(
          op,
          {
            message: `the ${name} of a request refused in validation was remembered: the valid request with it was not carried out`,
            expected: `2xx for a valid body with the key of a 400 (x-apikit-http idempotencyAfterValidation)`,
            actual: describe(valid),
          },
          valid,
        );
      } finally {
        if (valid && isSuccess(valid.response.status))
          await deleteCreated(ctx, op, valid, body, path).catch(() => undefined);
      }
    });
  },
};

/**
 * `idempotency_key_refusals`, where `x-apikit-http` declares `idempotencyAfterValidation` and
 * the operation `x-apikit-unique`: a refusal of a valid request (the conflict status, its
 * unique field taken by a resource the check made) is remembered under its key, so the same
 * key and body, sent again once that resource is deleted, replay the refusal rather than
 * create.
 */
export const idempotencyKeyRefusals: ScenarioCheck = {
  kind: 'scenario',
  name: 'idempotency_key_refusals',
  description:
    'Where x-apikit-http declares idempotencyAfterValidation, a conflict refused under a key is replayed after the conflict is gone',
  async run(ctx, record) {
    if (!declaredHttp(ctx.spec).idempotencyAfterValidation)
      return record.skip(undefined, 'x-apikit-http does not declare idempotencyAfterValidation');
    const ops = ctx.operations.filter((op) => parameter(op, 'header', HEADER) && uniqueFields(op));
    if (ops.length === 0)
      return record.skip(
        undefined,
        `no operation with an ${HEADER} header declares x-apikit-unique`,
      );
    await ctx.each(ops, async (op) => {
      const name = parameter(op, 'header', HEADER)!.name;
      const unique = uniqueFields(op)!;
      let path: Record<string, unknown> = {};
      if (op.parameters.some((p) => p.in === 'path')) {
        const made = await freshTarget(ctx, op);
        if ('reason' in made) return record.skip(op, made.reason);
        path = made.call.path ?? {};
      }
      const holderBody = validBody(ctx, op, 0);
      const other = validBody(ctx, op, 1);
      if (!isObject(holderBody) || !isObject(other))
        return record.skip(op, 'its body is not an object');
      const body = {
        ...other,
        ...Object.fromEntries(unique.fields.map((f) => [f, holderBody[f]])),
      };
      const key = `apikit-conformance-${randomUUID()}`;
      const made: { exchange: Exchange; body: unknown }[] = [];
      const send = async (b: unknown, headers: Record<string, string>) => {
        const exchange = await callAs(ctx, op, { path, headers, body: b });
        if (isSuccess(exchange.response.status)) made.push({ exchange, body: b });
        return exchange;
      };
      try {
        const holder = await send(holderBody, {});
        if (!isSuccess(holder.response.status))
          return record.skip(op, `a valid request was refused: ${describe(holder)}`);
        const refused = await send(body, { [name]: key });
        if (refused.response.status !== unique.conflictStatus)
          return record.skip(
            op,
            `a taken ${unique.fields.join(', ')} was not refused with ${unique.conflictStatus}: ${describe(refused)}`,
          );
        made.shift();
        await deleteCreated(ctx, op, holder, holderBody, path);
        const again = await send(body, { [name]: key });
        if (again.response.status === unique.conflictStatus)
          return record.pass(
            op,
            `${unique.conflictStatus} replayed with the key once the conflict was gone`,
            again,
          );
        record.fail(
          op,
          {
            message: `the ${unique.conflictStatus} answered under an ${name} was not remembered: the same key and body were carried out once the conflict was gone`,
            expected: `${unique.conflictStatus} replayed (x-apikit-http idempotencyAfterValidation)`,
            actual: describe(again),
          },
          again,
        );
      } finally {
        for (const m of made)
          await deleteCreated(ctx, op, m.exchange, m.body, path).catch(() => undefined);
      }
    });
  },
};
