import { randomUUID } from 'node:crypto';
import type { Exchange } from '../../http/target-client.js';
import type { ScenarioCheck } from '../check.js';
import { validBody } from '../support/round-trip-body.js';
import { deleteCreated, freshTarget } from '../support/spec-links.js';
import { callAs, isSuccess, parameter } from '../support/stateful-support.js';

const HEADER = 'Idempotency-Key';
/** Requests sent at once with one key and one body. */
const AT_ONCE = 4;

/**
 * `idempotency_key_in_flight`: several requests sent at once with one `Idempotency-Key` and
 * one body are carried out once (draft-ietf-httpapi-idempotency-key-header 2.6: a request
 * whose key is still being processed is refused with 409): every answer is the one 2xx (the
 * same status, Location and body) or 409, never a second resource. Whether any arrives while
 * the first is still being handled is the target's timing, so a run where all replay passes
 * too: the check catches a target that carries out the duplicates, not one that is fast.
 */
export const idempotencyKeyInFlight: ScenarioCheck = {
  kind: 'scenario',
  name: 'idempotency_key_in_flight',
  description:
    'Requests sent at once with one Idempotency-Key and body are carried out once: each answer is that 2xx or 409',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => parameter(op, 'header', HEADER));
    if (ops.length === 0)
      return record.skip(undefined, `no operation declares an ${HEADER} header`);
    await ctx.each(ops, async (op) => {
      const name = parameter(op, 'header', HEADER)!.name;
      let path: Record<string, unknown> = {};
      if (op.parameters.some((p) => p.in === 'path')) {
        const made = await freshTarget(ctx, op);
        if ('reason' in made) return record.skip(op, made.reason);
        path = made.call.path ?? {};
      }
      const body = validBody(ctx, op);
      const key = `apikit-conformance-${randomUUID()}`;
      const answers = await Promise.all(
        Array.from({ length: AT_ONCE }, () =>
          callAs(ctx, op, { path, headers: { [name]: key }, body }),
        ),
      );
      const created = new Map<string, Exchange>();
      for (const e of answers.filter((a) => isSuccess(a.response.status)))
        created.set(e.headers.get('location') ?? e.response.body, e);
      try {
        const [first] = created.values();
        if (!first)
          return record.skip(
            op,
            `no request was carried out: ${answers.map((a) => a.response.status).join(', ')}`,
          );
        const wrong = answers.find((a) => {
          const status = a.response.status;
          if (status === 409 || status === 429) return false;
          return status !== first.response.status || a.response.body !== first.response.body;
        });
        if (created.size > 1 || wrong)
          return record.fail(
            op,
            {
              message:
                created.size > 1
                  ? `${AT_ONCE} requests sent at once with one ${name} made ${created.size} resources`
                  : `a request sent at once with the same ${name} was answered neither 409 nor the replay`,
              expected: `one ${first.response.status} (Location ${first.headers.get('location') ?? '(none)'}), the others replaying it or 409`,
              actual: answers
                .map((a) => `${a.response.status} ${a.headers.get('location') ?? ''}`.trim())
                .join(', '),
            },
            wrong ?? [...created.values()][1],
          );
        record.pass(
          op,
          `carried out once: ${answers.map((a) => a.response.status).join(', ')}`,
          first,
        );
      } finally {
        for (const e of created.values())
          await deleteCreated(ctx, op, e, body, path).catch(() => undefined);
      }
    });
  },
};
