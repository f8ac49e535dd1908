import { sharedParamsFor } from '../../stateful/shared-fixtures.js';
import type { OpenAPIV3 } from 'openapi-types';
import { requiredRole } from '../../../spec/apikit-extensions.js';
import { needsCredentials } from '../../../spec/operation-security.js';
import { isUnsafeMethod, type SpecOperation } from '../../../spec/operations.js';
import type { Credential } from '../../auth-session.js';
import type { OperationCall } from '../../http/build-request.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';

/** Why a probe could not run for an operation. */
export type Unavailable = { reason: string };

/** Path parameter values for a probe, and whether a resource behind them was made for it. */
export interface ProbeParams {
  parameters: Record<string, unknown>;
  /**
   * True when the run created the resource for this very operation (through its links); false
   * when the values were borrowed from a resource made for another operation that declares the
   * same parameter, or taken from the spec's examples (so a 404 may be the honest answer).
   */
  real: boolean;
}

/** True when the operation needs credentials (it has requirements and none is empty). */

/** The role an operation needs whoever it touches (`x-apikit-role`), if any. */
export { requiredRole };

/** Statuses that mean something other than the data decided the answer. */
export function answeredBeforeData(status: number): boolean {
  return status === 401 || status === 403 || status === 404 || status === 429 || status >= 500;
}

/**
 * The credential under which an operation can be called as intended: the admin for operations
 * that need a role, the user for other secured ones, nobody for open ones.
 */
export function credentialFor(ctx: RunContext, op: SpecOperation): Credential | Unavailable {
  if (!needsCredentials(op)) return 'none';
  if (requiredRole(op)) {
    return ctx.auth.has('admin')
      ? 'admin'
      : { reason: `needs the ${requiredRole(op)} role and no admin credentials were given` };
  }
  if (ctx.auth.has('user')) return 'user';
  if (ctx.auth.has('admin')) return 'admin';
  return { reason: 'the operation is secured and no credentials were given' };
}

/** Whom resources for a probe are created as. */
export function fixtureCredential(ctx: RunContext): Credential {
  if (ctx.auth.has('user')) return 'user';
  return ctx.auth.has('admin') ? 'admin' : 'none';
}

/** An example value for a path parameter from the spec (example, default, minimum), if any. */
export function exampleValue(param: OpenAPIV3.ParameterObject): unknown {
  const schema = (param.schema ?? {}) as OpenAPIV3.SchemaObject;
  const named = param.examples ? Object.values(param.examples)[0] : undefined;
  const candidates = [
    param.example,
    named && 'value' in named ? named.value : undefined,
    schema.example,
    schema.default,
    schema.enum?.[0],
  ];
  const found = candidates.find((v) => v !== undefined);
  if (found !== undefined) return found;
  if (schema.type === 'integer' || schema.type === 'number')
    return Math.max(1, schema.minimum ?? 1);
  return undefined;
}

/**
 * Path parameter values for probing `op`: a resource made through the spec's links when one
 * can be made; else, per parameter, a resource made for another operation declaring the same
 * parameter (e.g. the user id of `/admin/users/{id}/block` from a created user); else the
 * spec's example value. An unsafe operation never falls back to an example where a resource
 * could have been made but was not (its producer out of scope, say): the example may name
 * someone's real data (decision 0096).
 */
export async function pathParams(
  ctx: RunContext,
  op: SpecOperation,
  options: { shared?: boolean } = {},
): Promise<ProbeParams | Unavailable> {
  const needed = op.parameters.filter((p) => p.in === 'path');
  if (needed.length === 0) return { parameters: {}, real: true };
  const credential = fixtureCredential(ctx);
  // A probe a correct target refuses (or only reads for) shares its resource (shared-fixtures.ts).
  const paramsFor = (target: SpecOperation) =>
    options.shared
      ? sharedParamsFor(ctx.fixtures, target, credential)
      : ctx.fixtures.paramsFor(target, credential);
  const parameters: Record<string, unknown> = {};
  const reasons: string[] = [];
  if (ctx.fixtures.producersOf(op).length > 0) {
    const made = await paramsFor(op);
    if ('reason' in made && isUnsafeMethod(op.method)) return made;
    if ('reason' in made) reasons.push(made.reason);
    else
      for (const param of needed)
        if (made.parameters[param.name] !== undefined)
          parameters[param.name] = made.parameters[param.name];
    // A link may leave some parameters to the caller (a role id, say).
    if (needed.every((p) => p.name in parameters)) return { parameters, real: true };
  }
  for (const param of needed) {
    if (param.name in parameters) continue;
    const donor = ctx.allOperations.find(
      (other) =>
        other !== op && other.parameters.includes(param) && ctx.fixtures.producersOf(other).length,
    );
    if (donor) {
      const made = await paramsFor(donor);
      if (!('reason' in made)) {
        for (const shared of donor.parameters.filter((p) => needed.includes(p)))
          if (made.parameters[shared.name] !== undefined)
            parameters[shared.name] = made.parameters[shared.name];
        if (param.name in parameters) continue;
      } else if (isUnsafeMethod(op.method)) return made;
      else reasons.push(made.reason);
    }
    const example = exampleValue(param);
    if (example === undefined)
      return {
        reason: `no value for path parameter ${param.name}: no resource could be made and the spec gives no example${reasons.length ? ` (${reasons[0]})` : ''}`,
      };
    parameters[param.name] = example;
  }
  return { parameters, real: false };
}

/** The JSON media type to send a body as (application/json when taken), or undefined if none. */
export function bodyMediaType(op: SpecOperation): string | undefined {
  const types = Object.keys(op.requestBody?.content ?? {});
  return types.includes('application/json')
    ? 'application/json'
    : types.find((t) => /^application\/(?:[\w.-]+\+)?json\b/i.test(t));
}

/**
 * A request the spec says is valid, at real (or example) path parameters: a positive body
 * when the operation takes one, a positive query when it requires query parameters.
 */
export function validCall(ctx: RunContext, op: SpecOperation, params: ProbeParams): OperationCall {
  const call: OperationCall = { path: params.parameters };
  const mediaType = bodyMediaType(op);
  if (op.requestBody && mediaType) {
    const [body] = ctx.generate.positiveBodies(op, 1);
    if (body !== undefined) {
      call.body = body;
      call.contentType = mediaType;
    }
  }
  if (op.parameters.some((p) => p.in === 'query' && p.required)) {
    const [query] = ctx.generate.positiveQueries(op, 1);
    if (query) call.query = query;
  }
  return call;
}

/** Parses a JSON body, or undefined. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `401 application/problem+json {"type":...}`: a response in one line, for failure messages. */
export function describeResponse(exchange: Exchange): string {
  const type = exchange.headers.get('content-type');
  const body = exchange.response.body.replace(/\s+/g, ' ').slice(0, 160);
  return `${exchange.response.status}${type ? ` ${type}` : ''}${body ? ` ${body}` : ''}`;
}

/** Counts statuses: `200×3, 409×1`. */
export function statusTally(statuses: number[]): string {
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(', ');
}

/**
 * The operations of the selection grouped by path, with every declared method of the path and
 * those of its judged operations (`required`): a method whose operation is out of scope or
 * missing on the target may be absent from an Allow header without a failure (decision 0096).
 */
export function selectedPaths(
  ctx: RunContext,
): { path: string; operations: SpecOperation[]; declared: string[]; required: string[] }[] {
  const paths = [...new Set(ctx.operations.map((op) => op.path))];
  return paths.map((path) => {
    const all = ctx.allOperations.filter((op) => op.path === path);
    const operations = ctx.operations.filter((op) => op.path === path);
    return {
      path,
      operations,
      declared: all.map((op) => op.method.toUpperCase()),
      required: operations.map((op) => op.method.toUpperCase()),
    };
  });
}

/**
 * Path parameter values for any operation of a path (see `pathParams`), for path-level probes
 * (an undeclared method, OPTIONS, another version): refused or read only, so shared.
 */
export async function pathLevelParams(
  ctx: RunContext,
  path: string,
): Promise<ProbeParams | Unavailable> {
  const ops = ctx.allOperations.filter((op) => op.path === path);
  const linked = ops.find((op) => ctx.fixtures.producersOf(op).length > 0);
  return pathParams(ctx, linked ?? ops[0]!, { shared: true });
}

/** The methods of an `Allow` header, upper-case. */
export function allowedMethods(allow: string | null): Set<string> {
  return new Set(
    (allow ?? '')
      .split(',')
      .map((m) => m.trim().toUpperCase())
      .filter(Boolean),
  );
}
