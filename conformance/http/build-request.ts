import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../spec/operations.js';
import type { PlannedRequest } from './target-client.js';

/** How a check wants an operation called; everything not given is derived from the spec. */
export interface OperationCall {
  /** Path parameter values by name. */
  path?: Record<string, unknown>;
  /** Query parameter values by name, serialized per the parameter's style/explode. */
  query?: Record<string, unknown>;
  /** A raw query string instead of `query` (for malformed values such as `size=1e3`). */
  rawQuery?: string;
  headers?: Record<string, string>;
  /** A JSON body (serialized); use `rawBody` for bytes that are not JSON. */
  body?: unknown;
  rawBody?: string;
  /**
   * Content-Type of the body (default: application/json, or the operation's one JSON media type
   * when it documents no application/json, e.g. only application/merge-patch+json); null sends none.
   */
  contentType?: string | null;
  /** Accept header (default application/json); null sends none. */
  accept?: string | null;
  /** Overrides the operation's method (HEAD of a GET, a method the path does not support). */
  method?: string;
  /** The Authorization header value to send, or null for none. Set by the run context. */
  authorization?: string | null;
}

/**
 * Turns an operation and a call into a concrete request: the path template filled (values
 * percent-encoded), the query serialized as the spec declares (`form`, exploded or not), and
 * the body and headers set.
 */
export function buildRequest(op: SpecOperation, call: OperationCall = {}): PlannedRequest {
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    encodeURIComponent(String(call.path?.[name] ?? `{${name}}`)),
  );
  const query = call.rawQuery ?? serializeQuery(op, call.query ?? {});
  const headers: Record<string, string> = {};
  if (call.accept !== null) headers['Accept'] = call.accept ?? 'application/json';
  if (call.authorization) headers['Authorization'] = call.authorization;
  let body: string | undefined;
  if (call.rawBody !== undefined) body = call.rawBody;
  else if (call.body !== undefined) body = JSON.stringify(call.body);
  if (body !== undefined && call.contentType !== null)
    headers['Content-Type'] = call.contentType ?? jsonMediaType(op);
  Object.assign(headers, call.headers);
  const method = call.method ?? op.method.toUpperCase();
  return {
    method,
    path: query ? `${path}?${query}` : path,
    route: `${method} ${op.path}`,
    headers,
    ...(body !== undefined ? { body } : {}),
  };
}

/** The JSON media type a body of `op` is sent as by default (decision 0116). */
function jsonMediaType(op: SpecOperation): string {
  const types = Object.keys(op.requestBody?.content ?? {});
  if (types.length === 0 || types.includes('application/json')) return 'application/json';
  return types.find((t) => /^application\/(?:[\w.-]+\+)?json\b/i.test(t)) ?? 'application/json';
}

function serializeQuery(op: SpecOperation, values: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const param = op.parameters.find((p) => p.in === 'query' && p.name === name) as
      OpenAPIV3.ParameterObject | undefined;
    const explode = param?.explode ?? (param?.style ?? 'form') === 'form';
    const encode = (v: unknown) => encodeURIComponent(String(v)).replace(/%2C/gi, ',');
    if (Array.isArray(value)) {
      if (explode) for (const v of value) parts.push(`${encodeURIComponent(name)}=${encode(v)}`);
      else
        parts.push(
          `${encodeURIComponent(name)}=${value.map((v) => encodeURIComponent(String(v))).join(',')}`,
        );
    } else {
      parts.push(`${encodeURIComponent(name)}=${encode(value)}`);
    }
  }
  return parts.join('&');
}
