import { randomUUID } from 'node:crypto';
import { declaredHttp } from '../../../spec/apikit-extensions.js';
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
