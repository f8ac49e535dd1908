import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Credential } from '../../auth-session.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { ScenarioCheck } from '../check.js';
import { validBody } from '../support/round-trip-body.js';
import { deleteCreated, freshTarget } from '../support/spec-links.js';
import { describe, isSuccess, parameter, roleCredential } from '../support/stateful-support.js';

const HEADER = 'Idempotency-Key';

/** One request of a scope probe: where and as whom the key is sent. */
interface Send {
  path: Record<string, unknown>;
  credential: Credential | undefined;
  body: unknown;
}

/**
 * `idempotency_key_scope`: an `Idempotency-Key` belongs to the subject, method and path it was
 * first sent with (draft-ietf-httpapi-idempotency-key-header: the key is unique per client and
 * resource): the same key with another valid body on another path (a second resource made for
 * the check), or from the other credential on the same path, is a new request, carried out
 * (2xx, another resource), never a replay of the first answer nor a refusal for a reused key.
 * Everything made is deleted.
 */
export const idempotencyKeyScope: ScenarioCheck = {
  kind: 'scenario',
  name: 'idempotency_key_scope',
  description:
    'The same Idempotency-Key on another path or from another credential is a new request, not a replay or a reuse',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => parameter(op, 'header', HEADER));
    if (ops.length === 0)
      return record.skip(undefined, `no operation declares an ${HEADER} header`);
    await ctx.each(ops, async (op) => {
      const name = parameter(op, 'header', HEADER)!.name;
      const made: { exchange: Exchange; send: Send }[] = [];
      const key = `apikit-conformance-${randomUUID()}`;
      const send = async (s: Send) => {
        const exchange = await ctx.call(
          op,
          { path: s.path, headers: { [name]: key }, body: s.body },
          s.credential,
        );
        if (isSuccess(exchange.response.status)) made.push({ exchange, send: s });
        return exchange;
      };
      try {
        const first = await pathFor(ctx, op);
        if ('reason' in first) return record.skip(op, first.reason);
        const own = roleCredential(ctx, op) ?? 'user';
        const original = await send({
          path: first.path,
          credential: own,
          body: validBody(ctx, op),
        });
        if (!isSuccess(original.response.status))
          return record.skip(op, `a valid request was refused: ${describe(original)}`);
        const variants: { label: string; send: Send }[] = [];
        if (op.parameters.some((p) => p.in === 'path')) {
          const other = await pathFor(ctx, op);
          if (!('reason' in other))
            variants.push({
              label: 'on another path',
              send: { path: other.path, credential: own, body: validBody(ctx, op, 1) },
            });
        }
        const otherCredential: Credential = own === 'admin' ? 'user' : 'admin';
        if (ctx.auth.has(otherCredential))
          variants.push({
            label: `from the ${otherCredential} credential`,
            send: { path: first.path, credential: otherCredential, body: validBody(ctx, op, 1) },
          });
        const judged: string[] = [];
        const unjudged: string[] = [];
        for (const variant of variants) {
          const answer = await send(variant.send);
          const status = answer.response.status;
          const replayed =
            status === original.response.status &&
            answer.headers.get('location') === original.headers.get('location') &&
            isDeepStrictEqual(answer.response.body, original.response.body);
          if (replayed || status === 409 || status === 422)
            return record.fail(
              op,
              {
                message: `the same ${name} ${variant.label} was taken for the first request's key (${replayed ? 'its answer replayed' : `refused ${status}`})`,
                expected: `a new request carried out (2xx, Location other than ${original.headers.get('location') ?? '(none)'})`,
                actual: `${describe(answer)}, Location ${answer.headers.get('location') ?? '(none)'}`,
              },
              answer,
            );
          if (isSuccess(status)) judged.push(`${variant.label}: ${status}`);
          else unjudged.push(`${variant.label} was refused: ${describe(answer)}`);
        }
        if (judged.length === 0)
          return record.skip(
            op,
            unjudged.length > 0
              ? unjudged.join('; ')
              : 'no second path and no second credential to send the key with',
          );
        record.pass(op, `a new request each time (${judged.join('; ')})`, original);
      } finally {
        for (const { exchange, send: s } of made)
          await deleteCreated(ctx, op, exchange, s.body, s.path).catch(() => undefined);
      }
    });
  },
};

/** Path values for the operation: none, or those of a resource made for it alone. */
async function pathFor(
  ctx: RunContext,
  op: SpecOperation,
): Promise<{ path: Record<string, unknown> } | { reason: string }> {
  if (!op.parameters.some((p) => p.in === 'path')) return { path: {} };
  const made = await freshTarget(ctx, op);
  return 'reason' in made ? made : { path: made.call.path ?? {} };
}
