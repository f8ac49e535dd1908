import type { ScenarioCheck } from '../check.js';
import { readTargets } from '../support/read-targets.js';
import { describe, documentedHeader } from '../support/stateful-support.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const NO_SUCH_TAG = '"apikit-conformance-no-such-tag"';

/**
 * `if_none_match_precedence`: where a GET's 200 documents both ETag and Last-Modified and
 * the GET documents 304, a request carrying both conditions is judged by `If-None-Match`
 * alone (RFC 9110 13.1.3 and 13.2.2: a recipient ignores If-Modified-Since when If-None-Match
 * is present). A tag that does not match with the current date answers the full 200; the
 * current tag with a date a day earlier answers 304.
 */
export const ifNoneMatchPrecedence: ScenarioCheck = {
  kind: 'scenario',
  name: 'if_none_match_precedence',
  description:
    'With If-None-Match and If-Modified-Since both sent, If-None-Match alone decides between 304 and 200',
  async run(ctx, record) {
    const gets = ctx.operations.filter((op) => op.method === 'get');
    const ops = gets.filter(
      (op) =>
        documentedHeader(op, 200, 'ETag') &&
        documentedHeader(op, 200, 'Last-Modified') &&
        op.responses['304'] !== undefined,
    );
    for (const op of gets.filter((o) => !ops.includes(o)))
      record.skip(op, 'its 200 does not document both ETag and Last-Modified, or it has no 304');
    if (ops.length === 0)
      return record.skip(undefined, 'no GET documents ETag, Last-Modified and 304');
    const targets = await readTargets(ctx, ops);
    await ctx.each(targets, async ({ op, target }) => {
      if ('reason' in target) return record.skip(op, target.reason);
      const send = (headers: Record<string, string>) =>
        ctx.call(op, { ...target.call, headers: { ...target.call.headers, ...headers } });
      for (let attempt = 0; attempt < 2; attempt++) {
        const plain = await send({});
        if (plain.response.status !== 200)
          return record.skip(op, `GET answered ${plain.response.status}, not 200`);
        const etag = plain.headers.get('etag');
        const date = plain.headers.get('last-modified');
        const time = date ? Date.parse(date) : NaN;
        if (!etag || !date || Number.isNaN(time))
          return record.skip(op, 'the 200 carries no ETag or no usable Last-Modified');
        const earlier = new Date(time - DAY_MS).toUTCString();
        const stale = await send({ 'If-None-Match': NO_SUCH_TAG, 'If-Modified-Since': date });
        const fresh = await send({ 'If-None-Match': etag, 'If-Modified-Since': earlier });
        const again = await send({});
        if (again.headers.get('etag') !== etag) continue; // changed meanwhile: try again
        if (stale.response.status !== 200)
          return record.fail(
            op,
            {
              message:
                'If-None-Match that does not match was overruled by If-Modified-Since (RFC 9110 13.1.3: If-Modified-Since is ignored when If-None-Match is present)',
              expected: `200 for If-None-Match: ${NO_SUCH_TAG} with If-Modified-Since: ${date}`,
              actual: describe(stale),
            },
            stale,
          );
        if (fresh.response.status !== 304)
          return record.fail(
            op,
            {
              message:
                'the current ETag in If-None-Match was overruled by an older If-Modified-Since (RFC 9110 13.1.3)',
              expected: `304 for If-None-Match: ${etag} with If-Modified-Since: ${earlier}`,
              actual: describe(fresh),
            },
            fresh,
          );
        return record.pass(op, 'If-None-Match decided both ways, If-Modified-Since ignored', fresh);
      }
      record.skip(op, 'the ETag changed between requests, so the conditions could not be judged');
    });
  },
};
