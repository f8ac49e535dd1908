import { parseYaml } from '../../../spec/parse-yaml.js';
import {
  serverPath,
  serviceDeclaration,
  type ServedRoute,
} from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import { TargetClient, type Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import { describeResponse } from '../support/probe-support.js';

/** The server's root below the origin (`''` for `…/api/v1` under `{base_url}/api/v1`), or why not. */
export function serverRoot(ctx: RunContext): { root: string } | { reason: string } {
  const declared = serverPath(ctx.spec);
  const base = ctx.client.basePath;
  if (declared === undefined) return { reason: 'the spec declares no server URL' };
  if (!base.endsWith(declared))
    return {
      reason: `the base URL's path (${base || '/'}) does not end with the server URL's (${declared}): its root is unknown`,
    };
  return { root: base.slice(0, base.length - declared.length) };
}

/** Sends GET/HEAD… of served routes, without credentials, through a client at the root. */
async function withRootClient(
  ctx: RunContext,
  record: CheckRecorder,
  routes: ServedRoute[],
  judge: (route: ServedRoute, exchange: Exchange, op: SpecOperation) => void,
): Promise<void> {
  if (routes.length === 0)
    return record.skip(undefined, 'the spec declares no such x-apikit-service.servedRoutes');
  const found = serverRoot(ctx);
  if ('reason' in found) return record.skip(undefined, found.reason);
  const op = ctx.operations[0] ?? ctx.allOperations[0];
  if (!op) return record.skip(undefined, 'no operation to attribute the results to');
  const client = new TargetClient({
    baseUrl: ctx.client.origin + found.root,
    headers: ctx.client.extraHeaders,
    concurrency: 1,
    pace: false,
  });
  try {
    for (const route of routes) {
      const accept = route.contract ? ACCEPT[route.contract] : '*/*';
      judge(
        route,
        await client.send({ method: route.method, path: route.path, headers: { Accept: accept } }),
        op,
      );
    }
  } finally {
    await client.close();
  }
}

const ACCEPT = { json: 'application/json', yaml: 'application/yaml, text/yaml;q=0.9, */*;q=0.1' };

/**
 * `open_routes`, where the spec declares `x-apikit-service.servedRoutes`: each route, sent to
 * the server's root without credentials, is neither 401 nor 403 (open to all). A 429 or 5xx
 * is not judged.
 */
export const openRoutes: ScenarioCheck = {
  kind: 'scenario',
  name: 'open_routes',
  description:
    'The routes the spec declares outside its operations (x-apikit-service.servedRoutes) need no credentials',
  run: (ctx, record) =>
    withRootClient(ctx, record, serviceDeclaration(ctx.spec).servedRoutes, (route, ex, op) => {
      const status = ex.response.status;
      if (status === 401 || status === 403)
        return record.fail(
          op,
          {
            message: `${route.method} ${route.path} asked for credentials (${status}): it is declared open to all`,
            expected: 'an answer without 401 or 403 to a request without credentials',
            actual: describeResponse(ex),
          },
          ex,
        );
      record.pass(op, `${route.method} ${route.path} without credentials: ${status}`);
    }),
};

/** One line per path, method, operationId and documented statuses, plus the document's identity. */
export function contractOutline(doc: unknown): Set<string> {
  const lines = new Set<string>();
  if (typeof doc !== 'object' || doc === null) return lines;
  const d = doc as Record<string, unknown>;
  const info = (d['info'] ?? {}) as Record<string, unknown>;
  lines.add(`openapi ${String(d['openapi'])}`);
  lines.add(`info ${String(info['title'])} ${String(info['version'])}`);
  for (const [path, item] of Object.entries((d['paths'] ?? {}) as Record<string, unknown>)) {
    for (const [method, operation] of Object.entries((item ?? {}) as Record<string, unknown>)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation))
        continue;
      const o = operation as { operationId?: string; responses?: Record<string, unknown> };
      const statuses = Object.keys(o.responses ?? {})
        .sort()
        .join(',');
      lines.add(`${method.toUpperCase()} ${path} ${o.operationId ?? '-'} ${statuses}`);
    }
  }
  const components = (d['components'] ?? {}) as Record<string, unknown>;
  for (const name of Object.keys((components['schemas'] ?? {}) as object))
    lines.add(`schema ${name}`);
  for (const key of Object.keys(d).filter((k) => k.startsWith('x-'))) lines.add(`extension ${key}`);
  return lines;
}

function parsed(route: ServedRoute, body: string): unknown {
  try {
    return route.contract === 'json' ? JSON.parse(body) : parseYaml(body);
  } catch {
    return undefined;
  }
}

/**
 * `served_documents`, where `x-apikit-service.servedRoutes` names routes serving the contract
 * (`contract: json | yaml`): each answers 200, parses as its format and has the spec the run
 * was given in outline: the same OpenAPI version, title and version, paths, methods,
 * operationIds and documented statuses, schema names and root extensions.
 */
export const servedDocuments: ScenarioCheck = {
  kind: 'scenario',
  name: 'served_documents',
  description:
    'The routes serving the contract (x-apikit-service.servedRoutes contract) serve the spec the run was given',
  run: (ctx, record) => {
    const routes = serviceDeclaration(ctx.spec).servedRoutes.filter((r) => r.contract);
    const expected = contractOutline(ctx.spec);
    return withRootClient(ctx, record, routes, (route, ex, op) => {
      const status = ex.response.status;
      if (status === 429 || status >= 500)
        return record.skip(op, `${route.path} answered ${status}`);
      const document = status === 200 ? parsed(route, ex.response.body) : undefined;
      const got = contractOutline(document);
      const missing = [...expected].filter((line) => !got.has(line));
      const extra = [...got].filter((line) => !expected.has(line));
      if (document === undefined || missing.length > 0 || extra.length > 0)
        return record.fail(
          op,
          {
            message: `GET ${route.path} does not serve the contract the run was given`,
            expected: `200, ${route.contract?.toUpperCase()} with the spec's ${expected.size} outline lines`,
            actual:
              document === undefined
                ? describeResponse(ex)
                : `missing: ${missing.slice(0, 5).join('; ') || 'none'}; not in the spec: ${extra.slice(0, 5).join('; ') || 'none'}`,
          },
          ex,
        );
      record.pass(op, `${route.path}: the contract (${expected.size} outline lines)`);
    });
  },
};
