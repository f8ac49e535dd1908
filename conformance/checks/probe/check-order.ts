import type { OpenAPIV3 } from 'openapi-types';
import { declaredHttp, requiredRole } from '../../../spec/apikit-extensions.js';
import { needsCredentials } from '../../../spec/operation-security.js';
import type { SpecOperation } from '../../../spec/operations.js';
import { declaredConventions } from '../../generate/declared-conventions.js';
import type { NegativeCase } from '../../generate/case-generator.js';
import { buildRequest, type OperationCall } from '../../http/build-request.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { Credential } from '../../auth-session.js';
import type { ScenarioCheck } from '../check.js';
import {
  bodyMediaType,
  describeResponse,
  pathParams,
  selectedPaths,
  validCall,
} from '../support/probe-support.js';
import { negativeCall } from './negative-data.js';

/** The steps a spec may order in `x-apikit-http.checkOrder`, and the status each answers. */
const STATUS: Record<string, number> = {
  method: 405,
  authentication: 401,
  authorization: 403,
  accept: 406,
  size: 413,
  'media-type': 415,
  parameters: 400,
  resource: 404,
  preconditions: 412,
  body: 400,
};

/** A request broken two ways, sent; undefined when no selected operation allows it. */
type Probe = (ctx: RunContext) => Promise<{ op: SpecOperation; exchange: Exchange } | undefined>;

const documents = (op: SpecOperation, ...statuses: number[]) =>
  statuses.every((s) => String(s) in op.responses);
const casesOf = (ctx: RunContext, op: SpecOperation, part: string): NegativeCase[] => {
  const declared = declaredConventions(ctx.spec);
  return ctx.generate
    .negativeCases(op)
    .filter((c) => (!c.convention || declared.has(c.convention)) && c.pointer.startsWith(part));
};

/** A path parameter case that still reaches the operation's route (no empty or dotted segment). */
const safePathCase = (ctx: RunContext, op: SpecOperation) =>
  casesOf(ctx, op, '#/path/').find((c) =>
    Object.values(c.call.path ?? {}).every((v) => /^[^/.][^/]*$/.test(String(v))),
  );

async function send(ctx: RunContext, op: SpecOperation, call: OperationCall, as: Credential) {
  if (as !== 'none' && typeof as === 'string' && !ctx.auth.has(as)) return undefined;
  const params = await pathParams(ctx, op, { shared: true });
  if ('reason' in params) return undefined;
  const authorization = as === 'none' ? null : ((await ctx.auth.authorization(as)) ?? null);
  const request = buildRequest(op, { ...call, path: { ...params.parameters, ...call.path } });
  if (authorization) request.headers = { ...request.headers, Authorization: authorization };
  return { op, exchange: await ctx.client.send(request) };
}

const PROBES: Record<string, Probe> = {
  // An undeclared method without credentials.
  'method authentication': async (ctx) => {
    for (const { path, operations, declared } of selectedPaths(ctx)) {
      const op = operations.find((o) => o.method !== 'options');
      const method = ['DELETE', 'PUT', 'PATCH', 'POST'].find((m) => !declared.includes(m));
      if (!op || !method || !needsCredentials(op) || path.includes('{')) continue;
      return send(ctx, op, { method }, 'none');
    }
    return undefined;
  },
  // An operation that needs a role, without credentials.
  'authentication authorization': async (ctx) => {
    const op = ctx.operations.find((o) => requiredRole(o) && documents(o, 401, 403));
    return op && send(ctx, op, validCallOf(ctx, op), 'none');
  },
  // An operation that needs a role, as a caller without it, with an Accept it cannot meet.
  'authorization accept': async (ctx) => {
    if (!ctx.auth.has('user')) return undefined;
    const op = ctx.operations.find((o) => requiredRole(o) && documents(o, 403, 406));
    return op && send(ctx, op, { ...validCallOf(ctx, op), accept: 'text/html' }, 'user');
  },
  // An operation that needs a role and takes a body, as a caller without it, the body too large.
  'authorization size': async (ctx) => {
    const op = roleOperationWithBody(ctx, 413);
    if (!op) return undefined;
    const { body: _valid, ...call } = validCallOf(ctx, op);
    const rawBody = JSON.stringify({ padding: 'x'.repeat(OVERSIZED_BYTES) });
    return send(ctx, op, { ...call, rawBody, contentType: bodyMediaType(op) }, 'user');
  },
  // The same, the body in a media type the operation does not take.
  'authorization media-type': async (ctx) => {
    const op = roleOperationWithBody(ctx, 415);
    if (!op) return undefined;
    const { body, ...call } = validCallOf(ctx, op);
    const rawBody = JSON.stringify(body ?? {});
    return send(ctx, op, { ...call, rawBody, contentType: 'text/plain' }, 'user');
  },
  // A body in the wrong media type, with a broken query or path parameter.
  'media-type parameters': async (ctx) => {
    for (const op of ctx.operations.filter((o) => bodyMediaType(o) && documents(o, 415, 400))) {
      const broken = casesOf(ctx, op, '#/query/')[0] ?? safePathCase(ctx, op);
      if (!broken) continue;
      const call = negativeCall(ctx, op, broken, { parameters: {}, real: true });
      if (call.body === undefined) continue;
      return send(ctx, op, { ...call, contentType: 'text/plain' }, credentialOf(ctx, op));
    }
    return undefined;
  },
  // A broken query parameter of an absent resource.
  'parameters resource': async (ctx) => {
    for (const op of ctx.operations.filter((o) => documents(o, 400, 404))) {
      const last = op.parameters.filter((p) => p.in === 'path').at(-1);
      const [broken] = casesOf(ctx, op, '#/query/');
      if (
        !last ||
        !broken ||
        op.method === 'options' ||
        (op.method === 'put' && '201' in op.responses)
      )
        continue;
      const schema = last.schema as OpenAPIV3.SchemaObject | undefined;
      const absent =
        schema?.type === 'integer' ? (schema.maximum ?? Number.MAX_SAFE_INTEGER) : 'absent-apikit';
      const call = negativeCall(ctx, op, broken, { parameters: {}, real: true });
      return send(ctx, op, { ...call, path: { [last.name]: absent } }, credentialOf(ctx, op));
    }
    return undefined;
  },
  // A stale If-Match with a broken body, at a resource the run made.
  'preconditions body': async (ctx) => {
    for (const op of ctx.operations.filter((o) => documents(o, 412, 400))) {
      const [broken] = casesOf(ctx, op, '#/').filter(
        (c) => c.call.body !== undefined && c.call.contentType === undefined,
      );
      if (!broken || !op.parameters.some((p) => p.in === 'path')) continue;
      const call = negativeCall(ctx, op, broken, { parameters: {}, real: true });
      const headers = { ...call.headers, 'If-Match': '"apikit-stale-etag"' };
      return send(ctx, op, { ...call, path: {}, headers }, credentialOf(ctx, op));
    }
    return undefined;
  },
};

/** Over the body limit of any sane JSON API (as payload_too_large sends). */
const OVERSIZED_BYTES = 1024 * 1024;

/**
 * An operation that needs a role the USER account lacks, takes a body and documents 403 and
 * `status` (its path parameters name resources the run makes).
 */
const roleOperationWithBody = (ctx: RunContext, status: number) =>
  ctx.auth.has('user')
    ? ctx.operations.find((o) => requiredRole(o) && bodyMediaType(o) && documents(o, 403, status))
    : undefined;

const validCallOf = (ctx: RunContext, op: SpecOperation): OperationCall => {
  const { path: _path, ...call } = validCall(ctx, op, { parameters: {}, real: true });
  return call;
};
const credentialOf = (ctx: RunContext, op: SpecOperation): Credential =>
  !needsCredentials(op) ? 'none' : requiredRole(op) ? 'admin' : 'user';

/**
 * check_order, where the spec declares `x-apikit-http.checkOrder` (steps such as `method`,
 * `authentication`, `authorization`, `accept`, `media-type`, `parameters`, `resource`,
 * `preconditions`, `body`, first to last): a request broken two ways gets the status of the
 * step that comes first. One request per pair of steps this check can break together (405
 * before 401, 401 before 403, 403 before 406, 413 and 415, 415 before 400, 400 before 404, 412
 * before 400),
 * on the first selected operation that documents both statuses.
 */
export const checkOrder: ScenarioCheck = {
  kind: 'scenario',
  name: 'check_order',
  description: 'A request broken two ways gets the status of the check the spec orders first',
  async run(ctx, record) {
    const order = declaredHttp(ctx.spec).checkOrder;
    if (order.length === 0)
      return record.skip(undefined, 'the spec does not declare x-apikit-http.checkOrder');
    const pairs = Object.keys(PROBES).filter((pair) => {
      const [first = '', then = ''] = pair.split(' ');
      return order.includes(first) && order.indexOf(first) < order.indexOf(then);
    });
    await ctx.each(pairs, async (pair) => {
      if (ctx.stopped()) return;
      const sent = await PROBES[pair]!(ctx);
      const [first = '', then = ''] = pair.split(' ');
      if (!sent)
        return record.skip(
          undefined,
          `no selected operation (with the credentials given) can fail ${first} and ${then} at once`,
        );
      const status = sent.exchange.response.status;
      const expected = STATUS[first]!;
      if (status === 429 || status >= 500)
        return record.skip(sent.op, `${first} and ${then} broken: ${status}, no verdict`);
      if (status !== expected)
        return record.fail(
          sent.op,
          {
            message: `a request failing both ${first} and ${then} answered ${status}`,
            expected: `${expected} (${first} is judged before ${then})`,
            actual: describeResponse(sent.exchange),
          },
          sent.exchange,
        );
      record.pass(sent.op, `${first} and ${then} broken: ${expected}, ${first} first`);
    });
  },
};
