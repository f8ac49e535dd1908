import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../../spec/operations.js';
import type { OperationCall } from '../../http/build-request.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CreatedResource, ResolvedLink, Unavailable } from '../../stateful/fixtures.js';
import { evaluateExpression, type ExpressionSource } from '../../stateful/link-expression.js';
import {
  callAs,
  callFor,
  roleCredential,
  exampleFor,
  jsonBody,
  linkTargets,
} from './stateful-support.js';
import { validBody } from './round-trip-body.js';

/** A new resource made by `producer`, as the credential the producer needs. */
export function createWith(
  ctx: RunContext,
  producer: SpecOperation,
): Promise<CreatedResource | Unavailable> {
  return ctx.fixtures.create(producer, roleCredential(ctx, producer) ?? 'user');
}

/** Producers (creating POSTs with links) whose links include one satisfying `wanted`. */
export function producersLinking(
  ctx: RunContext,
  wanted: (target: SpecOperation) => boolean,
): SpecOperation[] {
  return ctx.fixtures.producers().filter((p) => linkTargets(ctx, p).some(wanted));
}

/**
 * The call a resolved link makes: its parameter values, the spec's examples for required
 * path parameters it leaves to the caller, and its request body (or a valid generated one).
 */
export function linkCall(ctx: RunContext, link: ResolvedLink): OperationCall | Unavailable {
  const values = { ...link.parameters };
  for (const p of link.target.parameters) {
    if (p.in !== 'path' || values[p.name] !== undefined) continue;
    const example = exampleFor(p);
    if (example === undefined)
      return {
        reason: `link ${link.name} leaves path parameter ${p.name} open and has no example`,
      };
    values[p.name] = example;
  }
  const call = callFor(link.target, values);
  if (link.requestBody !== undefined) return { ...call, body: link.requestBody };
  if (link.target.requestBody) {
    const body = validBody(ctx, link.target);
    if (body !== undefined) return { ...call, body };
  }
  return call;
}

/**
 * Why a resource offers no link `wanted`: where the spec declares one that leads out of the
 * run's scope, that operation, named (decision 0096); else `otherwise`.
 *
 * @example
 * const link = resource.links.find(wanted) ?? noLink(ctx, resource, wanted, 'no link reads it');
 */
export function noLink(
  ctx: RunContext,
  resource: CreatedResource,
  wanted: (link: ResolvedLink) => boolean,
  otherwise: string,
): Unavailable {
  const declared = resource.allLinks.find(wanted);
  const why = declared && ctx.scope.unavailable(declared.target);
  return {
    reason: declared && why ? `it needs ${declared.target.operationId}, which ${why}` : otherwise,
  };
}

/** The resource's links to GET operations. */
export function readLinks(resource: CreatedResource): ResolvedLink[] {
  return resource.links.filter((l) => l.target.method === 'get');
}

export function deleteLinkOf(resource: CreatedResource): ResolvedLink | undefined {
  return resource.links.find((l) => l.target.method === 'delete');
}

/** Follows a link as the credential its target needs; one out of the run's scope is not. */
export async function follow(ctx: RunContext, link: ResolvedLink): Promise<Exchange | Unavailable> {
  const why = ctx.scope.unavailable(link.target);
  if (why) return { reason: `link ${link.name} leads to ${link.target.operationId}, which ${why}` };
  const call = linkCall(ctx, link);
  return 'reason' in call ? call : callAs(ctx, link.target, call);
}

/** A call for `op` on a resource created for it alone (checks that change or delete it). */
export async function freshTarget(
  ctx: RunContext,
  op: SpecOperation,
): Promise<{ call: OperationCall; resource: CreatedResource } | Unavailable> {
  const made = await ctx.fixtures.paramsFor(op);
  if ('reason' in made) return made;
  const values = { ...made.parameters };
  for (const p of op.parameters) {
    if (p.in !== 'path' || values[p.name] !== undefined) continue;
    values[p.name] = exampleFor(p);
    if (values[p.name] === undefined)
      return { reason: `no link gives path parameter ${p.name}, and it has no example` };
  }
  return { call: callFor(op, values), resource: made.resource };
}

/**
 * Deletes what a producer's answer created outside the fixtures (a replayed or repeated
 * POST), through the DELETE its links declare; best effort, for cleanup only.
 */
export async function deleteCreated(
  ctx: RunContext,
  producer: SpecOperation,
  exchange: Exchange,
  requestBody: unknown,
  path: Record<string, unknown>,
): Promise<void> {
  const status = exchange.response.status;
  const source: ExpressionSource = {
    request: {
      path,
      query: {},
      headers: exchange.request.headers,
      body: requestBody,
      url: exchange.request.url,
      method: exchange.request.method,
    },
    response: { status, headers: exchange.headers, body: jsonBody(exchange) },
  };
  const links = Object.values(
    producer.responses[String(status)]?.links ?? {},
  ) as OpenAPIV3.LinkObject[];
  for (const link of links) {
    const target = link.operationId ? ctx.operation(link.operationId) : undefined;
    if (target?.method !== 'delete') continue;
    // A DELETE the scope does not hold is the cleanup's to send (it is housekeeping there).
    if (ctx.scope.unavailable(target)) {
      ctx.fixtures.adopt(producer, exchange, path, requestBody);
      return;
    }
    const values: Record<string, unknown> = {};
    for (const [key, expression] of Object.entries(link.parameters ?? {}))
      values[key.replace(/^(path|query|header|cookie)\./, '')] = evaluateExpression(
        expression,
        source,
      );
    await callAs(ctx, target, callFor(target, values));
    return;
  }
}
