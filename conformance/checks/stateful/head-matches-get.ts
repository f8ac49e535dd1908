import type { Exchange } from '../../http/target-client.js';
import type { ScenarioCheck } from '../check.js';
import { readTargets } from '../support/read-targets.js';
import { callAs, describe, sendOtherMethod } from '../support/stateful-support.js';

const COMPARED = ['content-type', 'etag', 'last-modified'] as const;

/**
 * `head_matches_get`: HEAD of every GET operation answers what GET answers, without the
 * body: the same status, Content-Type, ETag and Last-Modified (RFC 9110 9.3.2).
 */
export const headMatchesGet: ScenarioCheck = {
  kind: 'scenario',
  name: 'head_matches_get',
  description: 'HEAD answers the status, Content-Type, ETag and Last-Modified of GET, and no body',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => op.method === 'get');
    if (ops.length === 0) {
      record.skip(undefined, 'no GET operation is selected');
      return;
    }
    const targets = await readTargets(ctx, ops);
    await ctx.each(targets, async ({ op, target }) => {
      if ('reason' in target) {
        record.skip(op, target.reason);
        return;
      }
      // GET, HEAD, GET: judged only when the two GETs agree, so that a change made by
      // someone else in between is not taken for a difference of HEAD. All three as the
      // credential the operation needs (its x-apikit-role), as HEAD is sent (decision 0116).
      for (let attempt = 0; attempt < 3; attempt++) {
        const before = await callAs(ctx, op, target.call);
        const head = await sendOtherMethod(ctx, op, { ...target.call, method: 'HEAD' });
        const after = await callAs(ctx, op, target.call);
        if (!sameHeaders(before, after)) continue;
        const wrong = [
          ...(head.response.status !== before.response.status ? ['status'] : []),
          ...COMPARED.filter((h) => normalize(head, h) !== normalize(before, h)),
          ...(head.response.body !== '' ? ['body (HEAD sent one)'] : []),
        ];
        if (wrong.length === 0) {
          record.pass(op, `HEAD matched GET (${before.response.status})`, head);
        } else {
          record.fail(
            op,
            {
              message: `HEAD differs from GET in ${wrong.join(', ')}`,
              expected: summary(before, false),
              actual: summary(head, true),
            },
            head,
          );
        }
        return;
      }
      record.skip(op, 'the representation changed between two GETs, so HEAD could not be judged');
    });
  },
};

/** Content-Type compared by media type: a charset on one of them says nothing for JSON. */
function normalize(exchange: Exchange, header: string): string | null {
  const value = exchange.headers.get(header);
  return header === 'content-type' && value !== null
    ? (value.split(';')[0] ?? '').trim().toLowerCase()
    : value;
}

function sameHeaders(a: Exchange, b: Exchange): boolean {
  return (
    a.response.status === b.response.status &&
    COMPARED.every((h) => normalize(a, h) === normalize(b, h))
  );
}

function summary(exchange: Exchange, head: boolean): string {
  const headers = COMPARED.map((h) => `${h}: ${exchange.headers.get(h) ?? '(none)'}`).join(', ');
  const body = head ? `, body ${exchange.response.body.length} bytes` : '';
  return `${describe(exchange)}; ${headers}${body}`;
}
