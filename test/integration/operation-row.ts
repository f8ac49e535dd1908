import { expect } from 'vitest';
import type { SpecOperation } from '../../spec/operations.js';
import { acceptsCredentials } from '../../spec/operation-security.js';
import type { ResponseValidator } from '../../spec/response-validator.js';
import { expectContract } from './contract-checks.js';
import { describeResponse, exchange, type Observed, type SentRequest } from './exchange.js';
import type { Fixtures } from './fixtures.js';

/** Values a row's setup made (ids, ETags, tokens), filled into `{name}` placeholders. */
export type Vars = Record<string, string | number>;

/** Who sends the row: a demo account's token, none, or a token that is not a JWT at all. */
export type Caller = 'admin' | 'user' | 'anonymous' | 'garbage';

/** The request of a row, below `/api/v1`; `{name}` placeholders are filled from the vars. */
export interface RowRequest {
  method: string;
  /** Path and query below the API base, e.g. `/users/{userId}/orders?status=PAID`. */
  path: string;
  headers?: Record<string, string>;
  /** A JSON body (Content-Type application/json unless the headers say otherwise). */
  json?: unknown;
  /** A body sent byte for byte (for 413, 415 and malformed JSON). */
  raw?: string;
}

export interface RowContext {
  fx: Fixtures;
  vars: Vars;
  sent: SentRequest;
}

/** One line of the table: an operation, the status it must answer, and how to get there. */
export interface OperationRow {
  operationId: string;
  status: number;
  name: string;
  /** Default: `admin` for secured operations, `anonymous` for open ones. */
  as?: Caller;
  request: RowRequest;
  /** Builds fresh state just before the request; its result fills the placeholders. */
  setup?: (fx: Fixtures) => Promise<Vars>;
  /** On a 400: the exact set of `errors[].pointer` values expected. */
  pointers?: string[];
  /** The path is deliberately not one of the operation's (an unknown path near it: 404). */
  offRoute?: boolean;
  check?: (res: Observed, ctx: RowContext) => void | Promise<void>;
  /** Undoes what the row changed beyond fresh objects (runs even when the row fails). */
  cleanup?: (fx: Fixtures, vars: Vars) => Promise<void>;
}

/** Everything a row needs to run against one server. */
export interface RowEnv {
  fx: Fixtures;
  validator: ResponseValidator;
  operations: ReadonlyMap<string, SpecOperation>;
  /** `operationId status` pairs the server actually answered. */
  reached: Set<string>;
}

export const GARBAGE_TOKEN = 'not-a-jwt';

/** The key of a documented (operation, status) pair. */
export function pairKey(operationId: string, status: number | string): string {
  return `${operationId} ${status}`;
}

/**
 * Runs one row: setup, the request, then the assertions every row gets (status, the spec's
 * response validation, the contract's headers for that status) and the row's own.
 */
export async function runRow(env: RowEnv, row: OperationRow, requestId: string): Promise<Observed> {
  const op = env.operations.get(row.operationId);
  if (!op) throw new Error(`row names an unknown operation ${row.operationId}`);
  const vars = row.setup ? await row.setup(env.fx) : {};
  try {
    const sent = buildRequest(env, op, row, vars, requestId);
    const res = await exchange(sent);
    expect(res.status, `${sent.method} ${sent.url}: ${describeResponse(res)}`).toBe(row.status);
    env.reached.add(pairKey(row.operationId, res.status));
    expect(env.validator.validate(row.operationId, res)).toEqual([]);
    await expectContract({ fx: env.fx, op, sent, res, pointers: row.pointers });
    await row.check?.(res, { fx: env.fx, vars, sent });
    return res;
  } finally {
    await row.cleanup?.(env.fx, vars);
  }
}

/** The row's request made concrete: placeholders filled, token and X-Request-Id added. */
export function buildRequest(
  env: Pick<RowEnv, 'fx'>,
  op: SpecOperation,
  row: OperationRow,
  vars: Vars,
  requestId: string,
): SentRequest {
  const { request } = row;
  if (request.method !== op.method.toUpperCase()) {
    throw new Error(`row ${row.name}: ${request.method} is not the method of ${op.operationId}`);
  }
  const path = fill(request.path, vars);
  if (!row.offRoute && !templatePattern(op.path).test(path.split('?')[0] as string)) {
    throw new Error(`row ${row.name}: ${path} is not a path of ${op.operationId} (${op.path})`);
  }
  const headers: Record<string, string> = { 'X-Request-Id': requestId };
  const caller = row.as ?? (acceptsCredentials(op) ? 'admin' : 'anonymous');
  const token = {
    admin: env.fx.server.adminToken,
    user: env.fx.server.userToken,
    garbage: GARBAGE_TOKEN,
    anonymous: undefined,
  }[caller];
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (request.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(fillJson(request.json, vars));
  } else if (request.raw !== undefined) {
    body = request.raw;
  }
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    headers[name] = fill(value, vars);
  }
  return {
    method: request.method,
    url: env.fx.server.api + path,
    headers,
    ...(body === undefined ? {} : { body }),
  };
}

/** `/users/{id}` as a pattern matching one whole segment per parameter. */
export function templatePattern(template: string): RegExp {
  const source = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${source}$`);
}

/** Replaces `{name}` with the var's value; an unknown name is a mistake in the row. */
export function fill(text: string, vars: Vars): string {
  return text.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, (_whole, name: string) => {
    const value = vars[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${text}`);
    return String(value);
  });
}

/** Fills placeholders inside JSON: a string that is exactly `{name}` takes the var's type. */
function fillJson(value: unknown, vars: Vars): unknown {
  if (typeof value === 'string') {
    const whole = /^\{([A-Za-z][A-Za-z0-9]*)\}$/.exec(value);
    if (whole && vars[whole[1] as string] !== undefined) return vars[whole[1] as string];
    return fill(value, vars);
  }
  if (Array.isArray(value)) return value.map((v) => fillJson(v, vars));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillJson(v, vars)]));
  }
  return value;
}
