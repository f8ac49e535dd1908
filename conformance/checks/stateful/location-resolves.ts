import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { ScenarioCheck } from '../check.js';
import { createWith } from '../support/spec-links.js';
import {
  describe,
  differences,
  documentedHeader,
  excerpt,
  isObject,
  jsonBody,
} from '../support/stateful-support.js';

/**
 * `location_resolves`: the `Location` of a 201, resolved against the request URL, reads the
 * new resource: GET answers 200 with the same `id` and the same values of the fields the
 * request sent as the 201 body (other fields may legitimately differ between the two).
 */
export const locationResolves: ScenarioCheck = {
  kind: 'scenario',
  name: 'location_resolves',
  description:
    "GET of a 201's Location answers 200 with the id and the sent fields of the 201 body",
  async run(ctx, record) {
    const creators = ctx.operations.filter(
      (op) => op.method === 'post' && documentedHeader(op, 201, 'Location'),
    );
    if (creators.length === 0) {
      record.skip(undefined, 'no POST documents a Location header on 201');
      return;
    }
    for (const op of creators) {
      if (ctx.stopped()) return;
      if (!ctx.fixtures.producers().includes(op)) {
        record.skip(op, 'its answer declares no links, so what it creates could not be deleted');
        continue;
      }
      const resource = await createWith(ctx, op);
      if ('reason' in resource) {
        record.skip(op, `no resource could be created: ${resource.reason}`);
        continue;
      }
      const created = resource.exchange;
      if (created.response.status !== 201) {
        record.skip(op, `it answered ${created.response.status}, not 201`);
        continue;
      }
      const location = created.headers.get('location');
      if (!location) {
        if (documentedHeader(op, 201, 'Location')?.required)
          record.fail(
            op,
            {
              message: 'a 201 without the Location header the spec requires',
              expected: 'Location: the URL of the new resource',
              actual: 'no Location header',
            },
            created,
          );
        else record.skip(op, 'the 201 carries no Location (documented as optional)');
        continue;
      }
      let url: URL;
      try {
        url = new URL(location, created.request.url);
      } catch {
        record.fail(
          op,
          { message: 'the Location is not a URL', expected: 'a URL', actual: location },
          created,
        );
        continue;
      }
      if (url.origin !== ctx.client.origin) {
        record.skip(op, `Location ${location} is on another origin; no credentials are sent there`);
        continue;
      }
      const res = await read(ctx, url);
      if ('reason' in res) {
        record.skip(op, res.reason);
        continue;
      }
      const sent = createdBodyKeys(created);
      const body = jsonBody(created);
      const got = jsonBody(res);
      const keys = ['id', ...sent].filter((k, i, all) => all.indexOf(k) === i);
      const compared = isObject(body) ? keys.filter((k) => k in body) : [];
      const diff = isObject(body) ? differences(pick(body, compared), pick(got, compared)) : [];
      if (res.response.status !== 200 || diff.length > 0) {
        record.fail(
          op,
          {
            message:
              res.response.status !== 200
                ? `GET of the Location ${location} does not read the new resource`
                : `GET of the Location ${location} shows other values than the 201 body: ${diff.join(', ')}`,
            expected: `200 with ${excerpt(body, compared)}`,
            actual: `${describe(res)} ${excerpt(got, compared)}`,
          },
          res,
        );
      } else {
        record.pass(op, `GET ${location} read the new resource (${compared.join(', ')})`, res);
      }
    }
  },
};

function createdBodyKeys(created: Exchange): string[] {
  try {
    const sent: unknown = JSON.parse(created.request.body ?? '');
    return isObject(sent) ? Object.keys(sent) : [];
  } catch {
    return [];
  }
}

function pick(value: unknown, keys: string[]): Record<string, unknown> {
  return isObject(value) ? Object.fromEntries(keys.map((k) => [k, value[k]])) : {};
}

/**
 * GET of a URL on the target's origin: through its GET operation when one matches (not at all
 * when that operation is out of the run's scope).
 */
async function read(ctx: RunContext, url: URL): Promise<Exchange | { reason: string }> {
  const base = ctx.client.basePath;
  const inside = url.pathname.startsWith(`${base}/`) ? url.pathname.slice(base.length) : undefined;
  const rawQuery = url.search.replace(/^\?/, '');
  const query = rawQuery ? { rawQuery } : {};
  if (inside !== undefined) {
    for (const op of ctx.allOperations.filter((o) => o.method === 'get')) {
      const path = match(op, inside);
      const why = path && ctx.scope.unavailable(op);
      if (why) return { reason: `reading the Location needs ${op.operationId}, which ${why}` };
      if (path) return ctx.call(op, { path, ...query });
    }
  }
  // Outside the base path or matching no operation: a plain GET of the URL, authenticated.
  const authorization = await ctx.auth.authorization('user');
  const headers: Record<string, string> = {
    Accept: 'application/json',
    ...(authorization ? { Authorization: authorization } : {}),
  };
  const started = performance.now();
  const res = await fetch(url, { headers, redirect: 'manual' });
  const text = await res.text();
  return {
    request: { method: 'GET', url: url.href, headers },
    response: {
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body: text,
      durationMs: performance.now() - started,
    },
    headers: res.headers,
  };
}

function match(op: SpecOperation, path: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = op.path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name) {
        names.push(name);
        return '([^/]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  const m = new RegExp(`^${pattern}$`).exec(path);
  if (!m) return undefined;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')]));
}
