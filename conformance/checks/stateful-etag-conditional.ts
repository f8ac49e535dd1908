import type { ScenarioCheck } from './check.js';
import { readTargets } from './stateful-read-targets.js';
import { describe, documentedHeader, weakMatch } from './stateful-support.js';

/** A tag no server hands out: `If-None-Match` with it must not match. */
const OTHER_TAG = '"apikit-conformance-no-such-tag"';

/**
 * `etag_conditional`: where a GET's 200 documents an ETag, `If-None-Match` with that tag
 * answers 304 with no body and the same ETag (RFC 9110 13.1.2, 15.4.5), and with another tag
 * the full 200.
 */
export const etagConditional: ScenarioCheck = {
  kind: 'scenario',
  name: 'etag_conditional',
  description:
    'If-None-Match with the current ETag answers 304 with no body and the ETag; another tag answers 200',
  async run(ctx, record) {
    const gets = ctx.operations.filter((op) => op.method === 'get');
    const ops = gets.filter((op) => documentedHeader(op, 200, 'ETag'));
    for (const op of gets.filter((o) => !ops.includes(o)))
      record.skip(op, 'its 200 documents no ETag');
    if (ops.length === 0) {
      record.skip(undefined, 'no GET operation documents an ETag on 200');
      return;
    }
    const targets = await readTargets(ctx, ops);
    await ctx.each(targets, async ({ op, target }) => {
      if ('reason' in target) return record.skip(op, target.reason);
      if (op.responses['304'] === undefined) return record.skip(op, 'it documents no 304');
      for (let attempt = 0; attempt < 2; attempt++) {
        const plain = await ctx.call(op, target.call);
        if (plain.response.status !== 200)
          return record.skip(op, `GET answered ${plain.response.status}, not 200`);
        const etag = plain.headers.get('etag');
        if (!etag) {
          if (documentedHeader(op, 200, 'ETag')?.required)
            record.fail(
              op,
              { message: 'the 200 carries no ETag', expected: 'an ETag header', actual: 'none' },
              plain,
            );
          else record.skip(op, 'this 200 carries no ETag (documented as optional)');
          return;
        }
        const headers = { ...target.call.headers, 'If-None-Match': etag };
        const cond = await ctx.call(op, { ...target.call, headers });
        if (cond.response.status !== 304) {
          const again = await ctx.call(op, target.call);
          if (again.headers.get('etag') !== etag) continue; // changed meanwhile: try again
          return record.fail(
            op,
            {
              message: 'If-None-Match with the current ETag did not answer 304',
              expected: `304 for If-None-Match: ${etag}`,
              actual: describe(cond),
            },
            cond,
          );
        }
        const problems = [
          ...(cond.response.body !== '' ? ['it has a body'] : []),
          ...(weakMatch(cond.headers.get('etag'), etag)
            ? []
            : [`its ETag is ${cond.headers.get('etag') ?? 'missing'}`]),
        ];
        if (problems.length > 0)
          return record.fail(
            op,
            {
              message: `the 304 is wrong: ${problems.join('; ')}`,
              expected: `304 without a body, with ETag ${etag}`,
              actual: `${describe(cond)}, ETag ${cond.headers.get('etag') ?? '(none)'}, body ${cond.response.body.length} bytes`,
            },
            cond,
          );
        const other = await ctx.call(op, {
          ...target.call,
          headers: { ...target.call.headers, 'If-None-Match': OTHER_TAG },
        });
        if (other.response.status !== 200 || other.response.body === '')
          return record.fail(
            op,
            {
              message: 'If-None-Match with a tag that does not match did not answer the full 200',
              expected: `200 with the representation for If-None-Match: ${OTHER_TAG}`,
              actual: describe(other),
            },
            other,
          );
        return record.pass(op, `304 for ${etag}, 200 for another tag`, cond);
      }
      record.skip(op, 'the ETag changed between requests, so the condition could not be judged');
    });
  },
};
