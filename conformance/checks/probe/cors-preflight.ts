import { serviceDeclaration } from '../../../spec/apikit-extensions.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { ScenarioCheck } from '../check.js';
import { describeResponse, fixtureCredential } from '../support/probe-support.js';
import { getPaths } from './routing.js';

/** An origin no target serves itself: a cross-origin caller. */
const ORIGIN = 'https://apikit-conform.example';

/** The names a CORS list header holds, lower-case; `*` stays `*`. */
function named(value: string | null): Set<string> {
  return new Set(
    (value ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** The declared names the header leaves out (`*` covers all but Authorization, per Fetch). */
function leftOut(declared: string[], value: string | null): string[] {
  const got = named(value);
  return declared.filter(
    (name) =>
      !got.has(name.toLowerCase()) && !(got.has('*') && name.toLowerCase() !== 'authorization'),
  );
}

const noVerdict = (exchange: Exchange) =>
  exchange.response.status === 429 || exchange.response.status >= 500;

async function authorized(ctx: RunContext): Promise<Record<string, string>> {
  const authorization = await ctx.auth.authorization(fixtureCredential(ctx));
  return authorization ? { Authorization: authorization } : {};
}

/**
 * `cors_headers`, where the spec declares `x-apikit-service.cors`: a preflight (OPTIONS with
 * `Origin` and `Access-Control-Request-Method: GET`, asking for every declared request header)
 * of the first probe path allows each of them in `Access-Control-Allow-Headers`, and a GET
 * with `Origin` exposes each declared response header in `Access-Control-Expose-Headers`.
 * A target that does not allow the probe's origin at all (its origins are configured) is
 * skipped: CORS then answers nothing, which is its right.
 */
export const corsHeaders: ScenarioCheck = {
  kind: 'scenario',
  name: 'cors_headers',
  description:
    'A CORS preflight allows the declared request headers; answers expose the declared response headers (x-apikit-service.cors)',
  async run(ctx, record) {
    const cors = serviceDeclaration(ctx.spec).cors;
    if (!cors) return record.skip(undefined, 'the spec does not declare x-apikit-service.cors');
    const path = (await getPaths(ctx))[0];
    if (!path) return record.skip(undefined, 'no selected path is served by GET');
    const preflight = await ctx.client.send({
      method: 'OPTIONS',
      path: path.filled,
      headers: {
        Origin: ORIGIN,
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': cors.allowHeaders.join(', ').toLowerCase(),
      },
    });
    if (noVerdict(preflight))
      return record.skip(path.get, `OPTIONS answered ${preflight.response.status}`);
    if (!preflight.headers.get('access-control-allow-origin'))
      return record.skip(
        path.get,
        `the target does not allow the origin ${ORIGIN} (its origins are configured)`,
      );
    const notAllowed = leftOut(
      cors.allowHeaders,
      preflight.headers.get('access-control-allow-headers'),
    );
    if (notAllowed.length > 0)
      return record.fail(
        path.get,
        {
          message: `a CORS preflight of ${path.filled} does not allow ${notAllowed.join(', ')}`,
          expected: `Access-Control-Allow-Headers naming ${cors.allowHeaders.join(', ')}`,
          actual: `Access-Control-Allow-Headers: ${preflight.headers.get('access-control-allow-headers') ?? '(none)'}; ${describeResponse(preflight)}`,
        },
        preflight,
      );
    const read = await ctx.client.send({
      method: 'GET',
      path: path.filled,
      headers: { Accept: 'application/json', Origin: ORIGIN, ...(await authorized(ctx)) },
    });
    if (noVerdict(read)) return record.skip(path.get, `GET answered ${read.response.status}`);
    const hidden = leftOut(cors.exposeHeaders, read.headers.get('access-control-expose-headers'));
    if (hidden.length > 0)
      return record.fail(
        path.get,
        {
          message: `a cross-origin GET of ${path.filled} does not expose ${hidden.join(', ')}`,
          expected: `Access-Control-Expose-Headers naming ${cors.exposeHeaders.join(', ')}`,
          actual: `Access-Control-Expose-Headers: ${read.headers.get('access-control-expose-headers') ?? '(none)'}`,
        },
        read,
      );
    record.pass(path.get, 'the preflight allows and the answer exposes the declared headers');
  },
};
