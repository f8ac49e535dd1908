import { serviceDeclaration } from '../../../spec/apikit-extensions.js';
import type { Exchange } from '../../http/target-client.js';
import type { ScenarioCheck } from '../check.js';
import { readTarget } from '../support/read-targets.js';
import { describe, documentedHeader } from '../support/stateful-support.js';

/** An origin no target serves itself: a cross-origin caller. */
const ORIGIN = 'https://apikit-conform.example';

/** The CORS headers of an actual (not preflight) answer a 304 must repeat. */
const CORS = [
  'access-control-allow-origin',
  'access-control-expose-headers',
  'access-control-allow-credentials',
] as const;

/** The request headers a Vary names, lower-case. */
const varied = (exchange: Exchange) =>
  new Set(
    (exchange.headers.get('vary') ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );

/**
 * `cross_origin_reads`, where the spec declares `x-apikit-service.cors`: a GET sent with
 * `Origin` whose answer names that origin in `Access-Control-Allow-Origin` (not `*`) carries
 * `Vary: Origin` (Fetch, CORS protocol and HTTP caches), and the 304 to the same GET with
 * `If-None-Match` carries the CORS headers of the 200. One GET that documents ETag and 304;
 * two requests. A target that does not allow the probe's origin is skipped.
 */
export const crossOriginReads: ScenarioCheck = {
  kind: 'scenario',
  name: 'cross_origin_reads',
  description:
    'A cross-origin GET that echoes its origin varies on Origin; its 304 repeats the CORS headers of the 200 (x-apikit-service.cors)',
  async run(ctx, record) {
    if (!serviceDeclaration(ctx.spec).cors)
      return record.skip(undefined, 'the spec does not declare x-apikit-service.cors');
    const ops = ctx.operations.filter(
      (op) =>
        op.method === 'get' &&
        op.responses['304'] !== undefined &&
        documentedHeader(op, 200, 'ETag') !== undefined,
    );
    for (const op of ops) {
      if (ctx.stopped()) return;
      const target = await readTarget(ctx, op);
      if ('reason' in target) continue;
      const call = { ...target.call, headers: { ...target.call.headers, Origin: ORIGIN } };
      const plain = await ctx.call(op, call);
      if (plain.response.status !== 200) continue;
      const allowOrigin = plain.headers.get('access-control-allow-origin');
      if (!allowOrigin)
        return record.skip(op, `the target does not allow the origin ${ORIGIN} (configured)`);
      const vary = varied(plain);
      if (allowOrigin !== '*' && !vary.has('origin') && !vary.has('*'))
        return record.fail(
          op,
          {
            message: `a cross-origin GET answered Access-Control-Allow-Origin: ${allowOrigin} without Vary: Origin`,
            expected: 'Vary naming Origin whenever the allowed origin is echoed (not *)',
            actual: `Vary: ${plain.headers.get('vary') ?? '(none)'}`,
          },
          plain,
        );
      const etag = plain.headers.get('etag');
      if (!etag) return record.skip(op, 'the 200 carries no ETag to revalidate');
      const cond = await ctx.call(op, {
        ...call,
        headers: { ...call.headers, 'If-None-Match': etag },
      });
      if (cond.response.status !== 304)
        return record.skip(op, `If-None-Match with its ETag answered ${describe(cond)}, not 304`);
      const lost = CORS.filter(
        (h) => plain.headers.get(h) !== null && cond.headers.get(h) !== plain.headers.get(h),
      );
      if (lost.length > 0)
        return record.fail(
          op,
          {
            message: `the 304 to a cross-origin GET does not repeat ${lost.join(', ')} of the 200`,
            expected: lost.map((h) => `${h}: ${plain.headers.get(h)}`).join('; '),
            actual: lost.map((h) => `${h}: ${cond.headers.get(h) ?? '(none)'}`).join('; '),
          },
          cond,
        );
      return record.pass(
        op,
        `Access-Control-Allow-Origin ${allowOrigin}${allowOrigin === '*' ? '' : ' with Vary: Origin'}; the 304 repeats the CORS headers`,
        cond,
      );
    }
    record.skip(undefined, 'no GET documenting ETag and 304 read a resource with 200');
  },
};
