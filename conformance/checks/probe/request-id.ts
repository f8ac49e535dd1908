import { serviceDeclaration } from '../../../spec/apikit-extensions.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { ScenarioCheck } from '../check.js';
import { describeResponse, fixtureCredential } from '../support/probe-support.js';
import { getPaths } from './routing.js';

/** A GET of `path` with the user's token and `extra` headers, outside any operation's tally. */
async function get(ctx: RunContext, path: string, extra: Record<string, string> = {}) {
  const authorization = await ctx.auth.authorization(fixtureCredential(ctx));
  const headers: Record<string, string> = { Accept: 'application/json', ...extra };
  if (authorization) headers['Authorization'] = authorization;
  return ctx.client.send({ method: 'GET', path, headers });
}

const noVerdict = (exchange: Exchange) =>
  exchange.response.status === 429 || exchange.response.status >= 500;

/**
 * `request_id_echo`, where the spec declares `x-apikit-service.requestId`: a GET of the first
 * probe path sent with that header gets the same value back; two sent without it each get one,
 * and not the same.
 */
export const requestIdEcho: ScenarioCheck = {
  kind: 'scenario',
  name: 'request_id_echo',
  description:
    'The request id header (x-apikit-service.requestId) is echoed when sent, generated otherwise',
  async run(ctx, record) {
    const header = serviceDeclaration(ctx.spec).requestId;
    if (!header)
      return record.skip(undefined, 'the spec does not declare x-apikit-service.requestId');
    const path = (await getPaths(ctx))[0];
    if (!path) return record.skip(undefined, 'no selected path is served by GET');
    const sent = `apikit-conform-${ctx.options.seed}-${ctx.random.fork('request_id_echo').int(1, 1e9)}`;
    const echoed = await get(ctx, path.filled, { [header]: sent });
    if (noVerdict(echoed)) return record.skip(path.get, `GET answered ${echoed.response.status}`);
    if (echoed.headers.get(header) !== sent)
      return record.fail(
        path.get,
        {
          message: `GET ${path.filled} sent with ${header}: ${sent} did not echo it`,
          expected: `${header}: ${sent}`,
          actual: `${header}: ${echoed.headers.get(header) ?? '(none)'}; ${describeResponse(echoed)}`,
        },
        echoed,
      );
    const [first, second] = [await get(ctx, path.filled), await get(ctx, path.filled)];
    const ids = [first, second].map((e) => e.headers.get(header));
    const bad = [first, second].find((e) => !e.headers.get(header)?.trim());
    if (bad || ids[0] === ids[1])
      return record.fail(
        path.get,
        {
          message: `GET ${path.filled} sent without ${header} ${bad ? 'got none' : 'got the same id twice'}`,
          expected: `a generated ${header}, another on each answer`,
          actual: `${header}: ${ids.map((id) => id ?? '(none)').join(', then ')}`,
        },
        bad ?? second,
      );
    record.pass(path.get, `${header} echoed when sent, generated otherwise`);
  },
};
