import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Exchange } from '../../http/target-client.js';
import type { ScenarioCheck } from '../check.js';
import { deleteCreated, freshTarget } from '../support/spec-links.js';
import { callAs, describe, isSuccess, jsonBody, parameter } from '../support/stateful-support.js';
import { validBody } from '../support/round-trip-body.js';

const HEADER = 'Idempotency-Key';

/**
 * `idempotency_key_replay`: on operations declaring an `Idempotency-Key` header, the same key
 * with the same body replays the first answer (status, body, Location: one resource, not
 * two), and the same key with another body is refused with a 4xx (422 where documented).
 */
export const idempotencyKeyReplay: ScenarioCheck = {
  kind: 'scenario',
  name: 'idempotency_key_replay',
  description:
    'The same Idempotency-Key and body replay the first answer; the same key with another body is refused (4xx, 422 where documented)',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => parameter(op, 'header', HEADER));
    if (ops.length === 0) {
      record.skip(undefined, `no operation declares an ${HEADER} header`);
      return;
    }
    await ctx.each(ops, async (op) => {
      const name = parameter(op, 'header', HEADER)!.name;
      let path: Record<string, unknown> = {};
      if (op.parameters.some((p) => p.in === 'path')) {
        const made = await freshTarget(ctx, op);
        if ('reason' in made) return record.skip(op, made.reason);
        path = made.call.path ?? {};
      }
      const body = validBody(ctx, op, 0);
      let other = validBody(ctx, op, 1);
      if (isDeepStrictEqual(body, other)) other = validBody(ctx, op, 0);
      if (isDeepStrictEqual(body, other))
        return record.skip(op, 'no second, different valid body could be made');
      const key = `apikit-conformance-${randomUUID()}`;
      const send = (b: unknown) => callAs(ctx, op, { path, headers: { [name]: key }, body: b });
      const created: Exchange[] = [];
      const track = (e: Exchange) => {
        if (isSuccess(e.response.status)) created.push(e);
        return e;
      };
      try {
        const first = track(await send(body));
        if (!isSuccess(first.response.status))
          return record.skip(
            op,
            `a valid request was refused, nothing to replay: ${describe(first)}`,
          );
        const replay = track(await send(body));
        const differs = [
          ...(replay.response.status !== first.response.status ? ['status'] : []),
          ...(!isDeepStrictEqual(jsonBody(replay), jsonBody(first)) ? ['body'] : []),
          ...(replay.headers.get('location') !== first.headers.get('location') ? ['Location'] : []),
        ];
        if (differs.length > 0)
          return record.fail(
            op,
            {
              message: `the same ${name} and body did not replay the first answer: ${differs.join(', ')} differ`,
              expected: `${first.response.status}, Location ${first.headers.get('location') ?? '(none)'}, ${first.response.body.slice(0, 200)}`,
              actual: `${replay.response.status}, Location ${replay.headers.get('location') ?? '(none)'}, ${replay.response.body.slice(0, 200)}`,
            },
            replay,
          );
        const reused = track(await send(other));
        const want = op.responses['422'] !== undefined ? [422] : undefined;
        const status = reused.response.status;
        const ok = want ? want.includes(status) : status >= 400 && status < 500;
        if (!ok)
          return record.fail(
            op,
            {
              message: `the same ${name} with another body was not refused as documented`,
              expected: want ? '422' : 'a 4xx',
              actual: describe(reused),
            },
            reused,
          );
        record.pass(
          op,
          `replayed ${first.response.status}; another body with the key: ${status}`,
          reused,
        );
      } finally {
        const seen = new Set<string>();
        for (const e of created) {
          const id = e.headers.get('location') ?? e.response.body;
          if (seen.has(id)) continue;
          seen.add(id);
          const sent: unknown = e.request.body ? JSON.parse(e.request.body) : undefined;
          await deleteCreated(ctx, op, e, sent, path).catch(() => undefined);
        }
      }
    });
  },
};
