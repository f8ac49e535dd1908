import { serverPath } from '../../../spec/service-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import { pathParameters } from '../../http/path-template.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckFailure, ResponseCheck } from '../check.js';
import {
  createdReaders,
  idMemberOf,
  parentMembers,
  sameParent,
  templateNames,
  type ResolvedLinkFact,
} from '../support/resource-identity-facts.js';
import { echoFailures } from '../support/sent-members-echo.js';
import { isObject, jsonBody } from '../support/stateful-support.js';

/**
 * `resource_identity` (a response check): a write's answer names the resource the request
 * addressed or made, on every exchange of a run, whatever check planned it. Four clauses,
 * each read from the description's links (resource-identity-facts.ts):
 * - a 201's `Location` is the path of the new resource's GET, under the request's parent,
 *   ending in the body's id (a 201 to PUT: the request's own path);
 * - a POST 201 body's members that name a parent (a link fills the create's path parameter
 *   with them) hold the request's value of that parameter;
 * - a 201 (POST, PUT) or 200 (PUT, PATCH) holds the values the request sent;
 * - the id of a single resource's 2xx answer (GET, PUT, PATCH) is its path's last id.
 * Found by the mutation harness (issue 32): each of these passed every check that did not
 * follow the write up itself.
 */
export const resourceIdentity: ResponseCheck = {
  kind: 'response',
  name: 'resource_identity',
  description:
    "A write's answer names its resource: Location, parent, id and the values sent are the request's",
  check(exchange, op, ctx): CheckFailure[] {
    const status = exchange.response.status;
    if (status < 200 || status >= 300) return [];
    const path = requestPath(exchange, op, ctx);
    if (!path) return [];
    const body = jsonBody(exchange);
    return [
      ...(status === 201 ? locationFailures(exchange, op, ctx, path, body) : []),
      ...(status === 201 && op.method === 'post' ? parentFailures(op, ctx, path, body) : []),
      ...echoFailures(exchange, op, body),
      ...idFailures(op, ctx, status, path, body),
    ];
  },
};

/** The request's path below the target's base, and its path parameters (raw and decoded). */
interface RequestPath {
  below: string;
  raw: Record<string, string>;
  decoded: Record<string, string>;
}

function requestPath(
  exchange: Exchange,
  op: SpecOperation,
  ctx: RunContext,
): RequestPath | undefined {
  const pathname = new URL(exchange.request.url).pathname;
  const base = ctx.client.basePath;
  if (!pathname.startsWith(base)) return undefined;
  const below = pathname.slice(base.length);
  const raw = pathParameters(op.path, below, { raw: true });
  if (!raw) return undefined;
  const decoded = Object.fromEntries(Object.entries(raw).map(([n, v]) => [n, safeDecode(v)]));
  return { below, raw, decoded };
}

/**
 * The Location of a 201: the GET path of what was made, the request's path parameters kept
 * (the same parent), the others from the body as the answer's link says. A 201 to PUT made
 * the resource at the request's path. Judged on the target's origin only.
 */
function locationFailures(
  exchange: Exchange,
  op: SpecOperation,
  ctx: RunContext,
  path: RequestPath,
  body: unknown,
): CheckFailure[] {
  const location = exchange.headers.get('location');
  if (!location) return [];
  let url: URL;
  try {
    url = new URL(location, exchange.request.url);
  } catch {
    return [];
  }
  if (url.origin !== new URL(exchange.request.url).origin) return [];
  const expected =
    op.method === 'put'
      ? [path.below]
      : createdReaders(ctx.allOperations, op).flatMap((reader) => filled(op, reader, path, body));
  if (expected.length === 0) return [];
  const declared = serverPath(ctx.spec);
  const prefixes = [ctx.client.basePath, ...(declared === undefined ? [] : [declared])];
  const at = safeDecode(url.pathname);
  const names = (rest: string) =>
    declared === undefined
      ? at.endsWith(safeDecode(rest))
      : prefixes.some((prefix) => at === safeDecode(prefix + rest));
  if (expected.some(names)) return [];
  return [
    {
      message: `the 201's Location does not name the resource it made`,
      expected: `Location: ${expected.map((rest) => (declared ?? ctx.client.basePath) + rest).join(' or ')}`,
      actual: `Location: ${location}`,
    },
  ];
}

/** A reader's path filled: the request's parents kept, the rest as the answer's link says. */
function filled(
  op: SpecOperation,
  reader: ResolvedLinkFact,
  path: RequestPath,
  body: unknown,
): string[] {
  let result = reader.target.path;
  for (const [name, source] of Object.entries(reader.parameters)) {
    const value =
      (sameParent(op, reader.target, name) ? path.raw[name] : undefined) ??
      ('requestParameter' in source
        ? path.raw[source.requestParameter]
        : isObject(body) && isIdentifier(body[source.member])
          ? encodeURIComponent(String(body[source.member]))
          : undefined);
    if (value === undefined) return [];
    result = result.replace(`{${name}}`, value);
  }
  return [result];
}

/** A POST 201's members naming a parent hold the request's value of that path parameter. */
function parentFailures(
  op: SpecOperation,
  ctx: RunContext,
  path: RequestPath,
  body: unknown,
): CheckFailure[] {
  if (!isObject(body)) return [];
  return parentMembers(ctx.allOperations, op).flatMap(({ parameter, member }) => {
    const sent = path.decoded[parameter];
    const got = body[member];
    if (sent === undefined || !isIdentifier(got) || String(got) === sent) return [];
    return [
      {
        message: `the 201 body's ${member} is not the ${parameter} of the request's path`,
        expected: `${member}: ${sent}`,
        actual: `${member}: ${JSON.stringify(got)}`,
      },
    ];
  });
}

/** The id member of a single resource's 2xx answer is the path's last identifier. */
function idFailures(
  op: SpecOperation,
  ctx: RunContext,
  status: number,
  path: RequestPath,
  body: unknown,
): CheckFailure[] {
  if (!['get', 'put', 'patch'].includes(op.method) || !isObject(body)) return [];
  const member = idMemberOf(ctx.allOperations, op, status);
  const last = templateNames(op.path).at(-1);
  if (member === undefined || last === undefined) return [];
  const id = body[member];
  const addressed = path.decoded[last];
  if (!isIdentifier(id) || addressed === undefined || String(id) === addressed) return [];
  return [
    {
      message: `the answer's ${member} names another resource than the path's ${last}`,
      expected: `${member}: ${addressed}`,
      actual: `${member}: ${JSON.stringify(id)}`,
    },
  ];
}

/** A value a path segment can hold: a string or a number (the schema judges which). */
function isIdentifier(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
