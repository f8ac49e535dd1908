import { declaredHttp } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { ScenarioCheck } from '../check.js';
import {
  describeResponse,
  fixtureCredential,
  pathLevelParams,
  selectedPaths,
} from '../support/probe-support.js';

/** A path of the spec filled for probing, and the GET that serves it. */
export interface ProbePath {
  template: string;
  get: SpecOperation;
  /** The path with real (or example) parameter values, below the base URL. */
  filled: string;
}

/** Does `path` (below the base, no query) match one of the spec's path templates? */
export function matchesDeclared(ctx: RunContext, path: string): boolean {
  return ctx.allOperations.some((op) => {
    const pattern = op.path
      .split(/(\{[^}]+\})/)
      .map((part) =>
        /^\{[^}]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('');
    return new RegExp(`^${pattern}$`).test(path);
  });
}

function fill(template: string, parameters: Record<string, unknown>, upper = false): string {
  return template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name !== undefined) return encodeURIComponent(String(parameters[name]));
      return upper ? part.toUpperCase() : part;
    })
    .join('');
}

/**
 * The selected paths served by a GET, filled: those without parameters, or (when there are
 * none) the first one whose parameters can be had. Probes of routing need a path that exists.
 */
export async function getPaths(ctx: RunContext): Promise<ProbePath[]> {
  const withGet = selectedPaths(ctx).flatMap(({ path, operations }) => {
    const get = operations.find((op) => op.method === 'get');
    return get ? [{ template: path, get }] : [];
  });
  const plain = withGet.filter((p) => !p.template.includes('{'));
  if (plain.length) return plain.map((p) => ({ ...p, filled: p.template }));
  for (const candidate of withGet) {
    const params = await pathLevelParams(ctx, candidate.template);
    if ('reason' in params) continue;
    return [{ ...candidate, filled: fill(candidate.template, params.parameters) }];
  }
  return [];
}

/** A status that says nothing about routing: the rate limit or a server error. */
const noVerdict = (status: number) => status === 429 || status >= 500;

/** The variants of a path that strict routing makes unknown paths. */
function variants(path: ProbePath): { what: string; path: string; method?: string }[] {
  const upper = fill(path.template, {}, true);
  const list = [
    { what: 'a trailing slash', path: `${path.filled}/` },
    { what: 'a file extension', path: `${path.filled}.json` },
  ];
  if (upper !== path.template && !path.template.includes('{'))
    list.push({ what: 'another letter case', path: upper });
  return list;
}

/**
 * strict_routing, where the spec declares `x-apikit-http.strictRouting`: only the declared
 * paths exist. A path served by GET, sent with a trailing slash, a file extension (`.json`) or
 * in upper case, is 404 (not the resource, not a redirect); so are OPTIONS and DELETE on a
 * path the spec does not declare (404 before 405). Sent with the user's token, so that a 401 cannot stand in for the 404.
 */
export const strictRouting: ScenarioCheck = {
  kind: 'scenario',
  name: 'strict_routing',
  description:
    'Undeclared variants of a path (trailing slash, .json, letter case) and OPTIONS on an unknown path are 404',
  async run(ctx, record) {
    if (!declaredHttp(ctx.spec).strictRouting)
      return record.skip(undefined, 'the spec does not declare x-apikit-http.strictRouting');
    const paths = await getPaths(ctx);
    if (paths.length === 0) return record.skip(undefined, 'no selected path is served by GET');
    const authorization = (await ctx.auth.authorization(fixtureCredential(ctx))) ?? null;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (authorization) headers['Authorization'] = authorization;
    await ctx.each(paths, async (path) => {
      const probes = variants(path).filter((v) => !matchesDeclared(ctx, v.path));
      if (path === paths[0]) {
        let unknown = '/apikit-no-such-path';
        while (matchesDeclared(ctx, unknown)) unknown += '/apikit-no-such-path';
        probes.push({ what: 'OPTIONS on an unknown path', path: unknown, method: 'OPTIONS' });
        // An unknown path is 404 before any method is judged (never 405).
        probes.push({ what: 'DELETE on an unknown path', path: unknown, method: 'DELETE' });
      }
      const wrong: { what: string; exchange: Exchange }[] = [];
      for (const probe of probes) {
        if (ctx.stopped()) return;
        const method = probe.method ?? 'GET';
        const exchange = await ctx.client.send({ method, path: probe.path, headers });
        const status = exchange.response.status;
        if (status !== 404 && !noVerdict(status)) wrong.push({ what: probe.what, exchange });
      }
      const first = wrong[0];
      if (first) {
        const request = `${first.exchange.request.method} ${new URL(first.exchange.request.url).pathname}`;
        return record.fail(
          path.get,
          {
            message: `${wrong.map((w) => w.what).join(', ')} of ${path.template} not answered 404`,
            expected: `404 for ${request} (${first.what}: not a declared path)`,
            actual: describeResponse(first.exchange),
          },
          first.exchange,
        );
      }
      record.pass(path.get, `${probes.map((p) => p.what).join(', ')} of ${path.template}: 404`);
    });
  },
};

/**
 * unrecognized_method, where the spec declares `x-apikit-http.unrecognizedMethodStatus`: a
 * method the server cannot know (PROPFIND: WebDAV, which no operation declares) is answered
 * with that status on every selected path (RFC 9110 9.1: 501), not 405 nor the path's answer.
 */
export const unrecognizedMethod: ScenarioCheck = {
  kind: 'scenario',
  name: 'unrecognized_method',
  description: 'A method no operation declares (PROPFIND) gets the declared status (501)',
  async run(ctx, record) {
    const expected = declaredHttp(ctx.spec).unrecognizedMethodStatus;
    if (expected === undefined)
      return record.skip(
        undefined,
        'the spec does not declare x-apikit-http.unrecognizedMethodStatus',
      );
    const authorization = (await ctx.auth.authorization(fixtureCredential(ctx))) ?? null;
    await ctx.each(selectedPaths(ctx), async ({ path, operations }) => {
      const op = operations.find((o) => o.method !== 'options') ?? operations[0]!;
      const params = await pathLevelParams(ctx, path);
      if ('reason' in params) return record.skip(op, params.reason);
      if (ctx.stopped()) return;
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (authorization) headers['Authorization'] = authorization;
      const exchange = await ctx.client.send({
        method: 'PROPFIND',
        path: fill(path, params.parameters),
        headers,
      });
      const status = exchange.response.status;
      if (noVerdict(status) && status !== expected)
        return record.skip(op, `PROPFIND ${path} answered ${status}: no verdict`);
      if (status !== expected)
        return record.fail(
          op,
          {
            message: `PROPFIND ${path}, a method the server cannot know, answered ${status}`,
            expected: String(expected),
            actual: describeResponse(exchange),
          },
          exchange,
        );
      record.pass(op, `PROPFIND ${path} answered ${expected}`);
    });
  },
};
