import type { OpenAPIV3 } from 'openapi-types';
import { isUnsafeMethod, type SpecOperation } from '../../../spec/operations.js';
import type { Credential } from '../../auth-session.js';
import { declaredConventions } from '../../generate/declared-conventions.js';
import { buildRequest, type OperationCall } from '../../http/build-request.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import { answerShape, unknownPath, type AnswerShape } from './no-route.js';
import { credentialFor, exampleValue, fixtureCredential, validCall } from './probe-support.js';

/** The target's answer to a path the spec does not have, per method and credential. */
export type NoRouteAnswers = (method: string, credential: Credential) => Promise<AnswerShape>;

/**
 * The credential a probe of `op` is sent with: the one it needs, else whoever the run has (a
 * route that is there answers 401 or 403 then, not like an unknown path).
 */
export function probeCredential(ctx: RunContext, op: SpecOperation): Credential {
  const granted = credentialFor(ctx, op);
  return typeof granted === 'object' && 'reason' in granted ? fixtureCredential(ctx) : granted;
}

/**
 * The target's answer to a path the spec does not have, learned once per method and
 * credential (a target may route, or authenticate, before it finds no route).
 *
 * @example
 * const noRoute = noRouteAnswers(ctx);
 * sameShape(answerShape(exchange, ctx.client.basePath), await noRoute('GET', 'user'));
 */
export function noRouteAnswers(ctx: RunContext): NoRouteAnswers {
  const known = new Map<string, Promise<AnswerShape>>();
  const path = unknownPath(ctx);
  return (method, credential) => {
    const key = `${method} ${typeof credential === 'string' ? credential : 'token'}`;
    let answer = known.get(key);
    if (!answer) {
      answer = (async () => {
        const authorization = await ctx.auth.authorization(credential);
        const headers: Record<string, string> = { Accept: 'application/json' };
        if (authorization) headers['Authorization'] = authorization;
        // A write carries a body, as the operation's requests do: a parser may answer first.
        const withBody = isUnsafeMethod(method.toLowerCase() as SpecOperation['method']);
        if (withBody) headers['Content-Type'] = 'application/json';
        const exchange = await ctx.client.send({
          method,
          path,
          headers,
          ...(withBody ? { body: '{}' } : {}),
        });
        return answerShape(exchange, ctx.client.basePath);
      })();
      known.set(key, answer);
    }
    return answer;
  };
}

/** Path values no resource holds: the largest the spec allows (writes) or its examples (reads). */
export function placeholderIds(op: SpecOperation, unsafe: boolean): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const param of op.parameters.filter((p) => p.in === 'path')) {
    const schema = (param.schema ?? {}) as OpenAPIV3.SchemaObject;
    const numeric = schema.type === 'integer' || schema.type === 'number';
    values[param.name] = unsafe
      ? numeric
        ? (schema.maximum ?? Number.MAX_SAFE_INTEGER)
        : `apikit-absent-${op.operationId}`
      : (exampleValue(param) ?? (numeric ? 1 : 'apikit-example'));
  }
  return values;
}

/** A request broken in one place that still reaches the route: the body first, then the query. */
export function invalidCall(
  ctx: RunContext,
  op: SpecOperation,
  path: Record<string, unknown>,
): OperationCall | undefined {
  const declared = declaredConventions(ctx.spec);
  const cases = ctx.generate
    .negativeCases(op)
    .filter((c) => !c.convention || declared.has(c.convention));
  const pick =
    cases.find((c) => c.pointer === '#' || !/^#\/(query|path|header)\//.test(c.pointer)) ??
    cases.find((c) => c.pointer.startsWith('#/query/'));
  if (!pick) return undefined;
  return {
    ...validCall(ctx, op, { parameters: path, real: false }),
    ...pick.call,
    path: { ...path, ...pick.call.path },
  };
}

/**
 * Sends a probe request of a route that may not be there with `credential`; whatever a write
 * created is adopted, so cleanup deletes it. Its answer is judged by the response checks like
 * any other (0129): should the route turn out missing, its results become the one "not
 * implemented" skip (ResultCollector.settleMissing).
 */
export async function sendProbe(
  ctx: RunContext,
  op: SpecOperation,
  call: OperationCall,
  credential: Credential,
): Promise<Exchange> {
  const authorization = (await ctx.auth.authorization(credential)) ?? null;
  const exchange = await ctx.client.send(buildRequest(op, { ...call, authorization }));
  const status = exchange.response.status;
  if (status >= 200 && status < 300 && op.method === 'post' && ctx.fixtures.isProducer(op))
    ctx.fixtures.adopt(op, exchange, call.path ?? {}, call.body);
  return exchange;
}
