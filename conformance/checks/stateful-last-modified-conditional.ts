import type { ScenarioCheck } from './check.js';
import { readTargets } from './stateful-read-targets.js';
import { describe, documentedHeader } from './stateful-support.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * `last_modified_conditional`: where a GET's 200 documents Last-Modified,
 * `If-Modified-Since` with that date (and no `If-None-Match`) answers 304 without a body,
 * and a date one day earlier the full 200 (RFC 9110 13.1.3).
 */
export const lastModifiedConditional: ScenarioCheck = {
  kind: 'scenario',
  name: 'last_modified_conditional',
  description:
    'If-Modified-Since with the Last-Modified date answers 304 without a body; a day earlier answers 200',
  async run(ctx, record) {
    const gets = ctx.operations.filter((op) => op.method === 'get');
    const ops = gets.filter((op) => documentedHeader(op, 200, 'Last-Modified'));
    for (const op of gets.filter((o) => !ops.includes(o)))
      record.skip(op, 'its 200 documents no Last-Modified');
    if (ops.length === 0) {
      record.skip(undefined, 'no GET operation documents Last-Modified on 200');
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
        const lastModified = plain.headers.get('last-modified');
        if (!lastModified) {
          if (documentedHeader(op, 200, 'Last-Modified')?.required)
            record.fail(
              op,
              {
                message: 'the 200 carries no Last-Modified',
                expected: 'a Last-Modified header',
                actual: 'none',
              },
              plain,
            );
          else record.skip(op, 'this 200 carries no Last-Modified (documented as optional)');
          return;
        }
        const time = Date.parse(lastModified);
        if (Number.isNaN(time) || time > Date.now() + 60_000)
          return record.skip(op, `Last-Modified ${lastModified} is no usable past HTTP-date`);
        const since = (date: string) =>
          ctx.call(op, {
            ...target.call,
            headers: { ...target.call.headers, 'If-Modified-Since': date },
          });
        const cond = await since(lastModified);
        if (cond.response.status !== 304) {
          const again = await ctx.call(op, target.call);
          if (again.headers.get('last-modified') !== lastModified) continue;
          return record.fail(
            op,
            {
              message: 'If-Modified-Since with the Last-Modified date did not answer 304',
              expected: `304 for If-Modified-Since: ${lastModified}`,
              actual: describe(cond),
            },
            cond,
          );
        }
        if (cond.response.body !== '')
          return record.fail(
            op,
            {
              message: 'the 304 has a body',
              expected: '304 without a body',
              actual: `${describe(cond)}, body ${cond.response.body.length} bytes`,
            },
            cond,
          );
        const earlier = new Date(time - DAY_MS).toUTCString();
        const changed = await since(earlier);
        if (changed.response.status !== 200 || changed.response.body === '')
          return record.fail(
            op,
            {
              message: 'If-Modified-Since a day before Last-Modified did not answer the full 200',
              expected: `200 with the representation for If-Modified-Since: ${earlier}`,
              actual: describe(changed),
            },
            changed,
          );
        return record.pass(op, `304 for ${lastModified}, 200 for ${earlier}`, cond);
      }
      record.skip(
        op,
        'Last-Modified changed between requests, so the condition could not be judged',
      );
    });
  },
};
