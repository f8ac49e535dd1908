import { declaredHttp } from '../../../spec/apikit-extensions.js';
import { TargetClient, type Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import { describeResponse, fixtureCredential } from '../support/probe-support.js';
import { getPaths, type ProbePath } from './routing.js';

const mediaType = (exchange: Exchange) =>
  (exchange.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

/** The paths a Link header's targets name, resolved against the request. */
function linkTargets(exchange: Exchange): string[] {
  const link = exchange.headers.get('link') ?? '';
  return [...link.matchAll(/<([^>]*)>/g)].flatMap((m) => {
    try {
      return [new URL(m[1]!, exchange.request.url).pathname];
    } catch {
      return [];
    }
  });
}

/** Why the base URL does not allow judging versions, or its parent and version. */
function versionOf(
  ctx: RunContext,
  versions: string[],
): { reason: string } | { parent: string; version: string } {
  const base = ctx.client.basePath;
  const version = base.slice(base.lastIndexOf('/') + 1);
  if (!versions.includes(version))
    return {
      reason: `the base URL's last segment (${version || 'none'}) is not a declared version (${versions.join(', ')})`,
    };
  return { parent: base.slice(0, base.lastIndexOf('/')), version };
}

/** The version after the newest declared one: v2 when v1 is the newest. */
function unknownVersion(versions: string[]): string {
  return `v${Math.max(...versions.map((v) => Number(v.slice(1)))) + 1}`;
}

async function judge(
  ctx: RunContext,
  record: CheckRecorder,
  path: ProbePath,
  outside: TargetClient,
  where: { parent: string; version: string; alias: boolean; unknown: string },
): Promise<void> {
  const authorization = await ctx.auth.authorization(fixtureCredential(ctx));
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (authorization) headers['Authorization'] = authorization;
  const other = await outside.send({
    method: 'GET',
    path: `/${where.unknown}${path.filled}`,
    headers,
  });
  const status = other.response.status;
  if (status !== 404 && status !== 429 && status < 500)
    return record.fail(
      path.get,
      {
        message: `GET ${where.parent}/${where.unknown}${path.filled}: an unknown version answered ${status}`,
        expected: `404 (the spec declares only ${where.version} and older)`,
        actual: describeResponse(other),
      },
      other,
    );
  if (!where.alias) return record.pass(path.get, `unknown version ${where.unknown}: 404`);
  const direct = await ctx.client.send({ method: 'GET', path: path.filled, headers });
  const alias = await outside.send({ method: 'GET', path: path.filled, headers });
  const same =
    alias.response.status === direct.response.status && mediaType(alias) === mediaType(direct);
  if (!same && alias.response.status !== 429 && direct.response.status !== 429)
    return record.fail(
      path.get,
      {
        message: `GET ${where.parent || '/'}${path.filled}, the alias of the newest version, is not answered as GET ${ctx.client.basePath}${path.filled}`,
        expected: `${direct.response.status} ${mediaType(direct)} (as through ${where.version})`,
        actual: describeResponse(alias),
      },
      alias,
    );
  const base = `${ctx.client.basePath}/`;
  const stray = linkTargets(alias).filter((target) => !target.startsWith(base));
  if (stray.length)
    return record.fail(
      path.get,
      {
        message: `the alias ${where.parent || '/'}${path.filled} links to unversioned paths`,
        expected: `Link targets under ${base}`,
        actual: `Link: ${alias.headers.get('link')}`,
      },
      alias,
    );
  record.pass(path.get, `unknown version ${where.unknown}: 404; ${where.parent}: the alias`);
}

/**
 * version_routing, where the spec declares `x-apikit-http.versions` and the base URL ends in
 * one of them (`…/api/v1`): a GET under the next version (`…/api/v2/…`) is 404; with
 * `newestVersionAlias` and the base at the newest version, the same GET without the version
 * segment (`…/api/…`) is answered as through the base (status and media type), its `Link`
 * naming paths under the base. Nothing beyond the base URL's own parent is assumed.
 */
export const versionRouting: ScenarioCheck = {
  kind: 'scenario',
  name: 'version_routing',
  description:
    'An unknown API version is 404; the base without its version is an alias of the newest (where declared)',
  async run(ctx, record) {
    const declared = declaredHttp(ctx.spec);
    if (declared.versions.length === 0)
      return record.skip(undefined, 'the spec does not declare x-apikit-http.versions');
    const found = versionOf(ctx, declared.versions);
    if ('reason' in found) return record.skip(undefined, found.reason);
    const paths = await getPaths(ctx);
    const path = paths[0];
    if (!path) return record.skip(undefined, 'no selected path is served by GET');
    const unknown = unknownVersion(declared.versions);
    const alias = declared.newestVersionAlias && found.version === unknownVersionBefore(unknown);
    const outside = new TargetClient({
      baseUrl: ctx.client.origin + found.parent,
      headers: ctx.client.extraHeaders,
      concurrency: 1,
      pace: false,
    });
    try {
      await judge(ctx, record, path, outside, { ...found, alias, unknown });
    } finally {
      await outside.close();
    }
  },
};

function unknownVersionBefore(unknown: string): string {
  return `v${Number(unknown.slice(1)) - 1}`;
}
