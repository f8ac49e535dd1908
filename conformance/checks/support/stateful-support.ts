import { isDeepStrictEqual } from 'node:util';
import type { OpenAPIV3 } from 'openapi-types';
import { requiredRole } from '../../../spec/apikit-extensions.js';
import { acceptsCredentials } from '../../../spec/operation-security.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Credential } from '../../auth-session.js';
import { buildRequest, type OperationCall } from '../../http/build-request.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';

/** Shared vocabulary of the stateful checks: statuses, schemas, bodies and requests. */

export type Schema = OpenAPIV3.SchemaObject;

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** The parsed JSON body, or undefined when there is none or it is not JSON. */
export function jsonBody(exchange: Exchange): unknown {
  if (!exchange.response.body) return undefined;
  try {
    return JSON.parse(exchange.response.body);
  } catch {
    return undefined;
  }
}

/** `GET https://host/api/v1/users/3 -> 404`: how a failure names the request it saw. */
export function describe(exchange: Exchange): string {
  return `${exchange.request.method} ${exchange.request.url} -> ${exchange.response.status}`;
}

/** A status the spec documents for the operation (exactly, by its `4XX` range or `default`). */
export function isDocumented(op: SpecOperation, status: number): boolean {
  const code = String(status);
  return (
    op.responses[code] !== undefined ||
    op.responses[`${code[0]}XX`] !== undefined ||
    op.responses.default !== undefined
  );
}

export function documentedSuccesses(op: SpecOperation): number[] {
  return Object.keys(op.responses)
    .filter((c) => /^2\d\d$/.test(c))
    .map(Number);
}

/** The documented header of a response, looked up case-insensitively. */
export function documentedHeader(
  op: SpecOperation,
  status: number | string,
  name: string,
): OpenAPIV3.HeaderObject | undefined {
  const headers = op.responses[String(status)]?.headers ?? {};
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  return key ? (headers[key] as OpenAPIV3.HeaderObject) : undefined;
}

/** The request parameter of that name and location, case-insensitive for headers. */
export function parameter(
  op: SpecOperation,
  where: string,
  name: string,
): OpenAPIV3.ParameterObject | undefined {
  return op.parameters.find(
    (p) =>
      p.in === where &&
      (where === 'header' ? p.name.toLowerCase() === name.toLowerCase() : p.name === name),
  );
}

function jsonMedia(
  content: Record<string, OpenAPIV3.MediaTypeObject> | undefined,
): Schema | undefined {
  if (!content) return undefined;
  const type =
    Object.keys(content).find((t) => t === 'application/json') ??
    Object.keys(content).find((t) => /json/.test(t));
  return type ? (content[type]?.schema as Schema | undefined) : undefined;
}

/** The JSON schema documented for a response status. */
export function responseSchema(op: SpecOperation, status: number | string): Schema | undefined {
  return jsonMedia(op.responses[String(status)]?.content);
}

/** The JSON schema of the request body. */
export function requestSchema(op: SpecOperation): Schema | undefined {
  return jsonMedia(op.requestBody?.content);
}

/** The properties of an object schema, `allOf` members merged. */
export function properties(schema: Schema | undefined): Record<string, Schema> {
  if (!schema) return {};
  const merged: Record<string, Schema> = {};
  for (const part of (schema.allOf ?? []) as Schema[]) Object.assign(merged, properties(part));
  return Object.assign(merged, schema.properties as Record<string, Schema> | undefined);
}

export function requiredOf(schema: Schema | undefined): string[] {
  if (!schema) return [];
  return [
    ...(schema.required ?? []),
    ...((schema.allOf ?? []) as Schema[]).flatMap((part) => requiredOf(part)),
  ];
}

/** A property flag (`readOnly`, `nullable`) set on the schema or on one of its `allOf` parts. */
export function flag(schema: Schema | undefined, name: 'readOnly' | 'nullable'): boolean {
  if (!schema) return false;
  return schema[name] === true || ((schema.allOf ?? []) as Schema[]).some((p) => flag(p, name));
}

export function isDateTime(schema: Schema | undefined): boolean {
  if (!schema) return false;
  return (
    schema.format === 'date-time' || ((schema.allOf ?? []) as Schema[]).some((p) => isDateTime(p))
  );
}

/**
 * Properties a server may legitimately change on any write: read-only timestamps, and
 * read-only revision counters (`version`, `revision`) of optimistic locking.
 */
export function volatileProperties(schema: Schema | undefined): Set<string> {
  return new Set(
    Object.entries(properties(schema))
      .filter(
        ([name, p]) =>
          flag(p, 'readOnly') && (isDateTime(p) || /^(lock)?(version|revision|rev)$/i.test(name)),
      )
      .map(([name]) => name),
  );
}

/** The names of the top-level properties on which two objects differ, ignoring `ignored`. */
export function differences(a: unknown, b: unknown, ignored: Set<string> = new Set()): string[] {
  if (!isObject(a) || !isObject(b)) return isDeepStrictEqual(a, b) ? [] : ['(the whole body)'];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => !ignored.has(k) && !isDeepStrictEqual(a[k], b[k]));
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Shows the values of some properties, for `expected`/`actual`. */
export function excerpt(value: unknown, keys: string[]): string {
  if (!isObject(value)) return JSON.stringify(value) ?? 'no body';
  return JSON.stringify(Object.fromEntries(keys.map((k) => [k, value[k]])));
}

/** Operations of the run's selection, for checks that judge them. */
export function isSelected(ctx: RunContext, op: SpecOperation): boolean {
  return ctx.operations.some((o) => o.operationId === op.operationId);
}

/** The GET operation on the same path template as `op`, if the spec has one. */
export function readerOf(ctx: RunContext, op: SpecOperation): SpecOperation | undefined {
  return ctx.allOperations.find((o) => o.method === 'get' && o.path === op.path);
}

/**
 * The credential an operation needs: the admin's for operations the spec marks with a role
 * (`x-apikit-role`; the admin's credentials stand for any role, as in `credentialFor`) when
 * admin credentials were given, the run's default otherwise.
 */
export function roleCredential(ctx: RunContext, op: SpecOperation): Credential | undefined {
  return requiredRole(op) !== undefined && ctx.auth.has('admin') ? 'admin' : undefined;
}

/**
 * Sends another method on `op`'s path with `op`'s credential: HEAD and OPTIONS, which
 * `ctx.call` would attribute to `op` itself. The run attributes the answer by its method and
 * path instead (HEAD to the GET, OPTIONS to the path's OPTIONS operation, decision 0129).
 */
export async function sendOtherMethod(
  ctx: RunContext,
  op: SpecOperation,
  call: OperationCall,
): Promise<Exchange> {
  const who = roleCredential(ctx, op) ?? (acceptsCredentials(op) ? 'user' : 'none');
  const authorization = (await ctx.auth.authorization(who)) ?? null;
  return ctx.client.send(buildRequest(op, { ...call, authorization }));
}

/** Calls an operation with the credential it needs. */
export function callAs(ctx: RunContext, op: SpecOperation, call: OperationCall): Promise<Exchange> {
  return ctx.call(op, call, roleCredential(ctx, op));
}

/** Splits parameter values by bare name into the path, query and headers of a call. */
export function callFor(op: SpecOperation, values: Record<string, unknown>): OperationCall {
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    const p = op.parameters.find((x) => x.name === name);
    if (p?.in === 'query') query[name] = value;
    else if (p?.in === 'header') headers[p.name] = String(value);
    else if (p?.in === 'path' || !p) path[name] = value;
  }
  return {
    path,
    ...(Object.keys(query).length ? { query } : {}),
    ...(Object.keys(headers).length ? { headers } : {}),
  };
}

/** Values for required path parameters a link does not give: the spec's examples. */
export function exampleFor(param: OpenAPIV3.ParameterObject): unknown {
  if (param.example !== undefined) return param.example;
  const schema = param.schema as Schema | undefined;
  if (schema?.example !== undefined) return schema.example;
  const first = Object.values(param.examples ?? {})[0] as OpenAPIV3.ExampleObject | undefined;
  return first?.value;
}

/** Entity tags compared weakly (RFC 9110 8.8.3.2): `W/"x"` and `"x"` match. */
export function weakMatch(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return false;
  return a.replace(/^W\//, '') === b.replace(/^W\//, '');
}

/** The operations a producer's success answers link to, in the order the spec lists them. */
export function linkTargets(ctx: RunContext, producer: SpecOperation): SpecOperation[] {
  const ids = Object.entries(producer.responses)
    .filter(([code]) => code.startsWith('2'))
    .flatMap(([, r]) => Object.values(r.links ?? {}) as OpenAPIV3.LinkObject[])
    .map((l) => l.operationId);
  const ops: SpecOperation[] = [];
  for (const id of ids) {
    const op = id ? ctx.operation(id) : undefined;
    if (op && !ops.includes(op)) ops.push(op);
  }
  return ops;
}

/** The item schema of an array schema. */
export function itemSchema(schema: Schema | undefined): Schema | undefined {
  return (schema as OpenAPIV3.ArraySchemaObject | undefined)?.items as Schema | undefined;
}

/**
 * The PUT, PATCH and DELETE operations documenting 412 (those a precondition check can judge);
 * every other write is skipped saying so, and the check as a whole when none documents it.
 *
 * @example
 * const ops = writesDocumenting412(ctx, record);
 * if (ops.length === 0) return;
 */
export function writesDocumenting412(
  ctx: RunContext,
  record: { skip(op: SpecOperation | undefined, reason: string): void },
): SpecOperation[] {
  const writes = ctx.operations.filter((op) => ['put', 'patch', 'delete'].includes(op.method));
  const ops = writes.filter((op) => op.responses['412'] !== undefined);
  for (const op of writes.filter((o) => !ops.includes(o))) record.skip(op, 'it documents no 412');
  if (ops.length === 0) record.skip(undefined, 'no PUT, PATCH or DELETE operation documents 412');
  return ops;
}
