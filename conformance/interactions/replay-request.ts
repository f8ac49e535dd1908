import { requiredRole, uniqueFields } from '../../spec/apikit-extensions.js';
import {
  PLACEHOLDERS,
  VARYING,
  type RecordedInteraction,
} from '../../spec/interactions/interaction-file.js';
import { acceptsCredentials } from '../../spec/operation-security.js';
import type { SpecOperation } from '../../spec/operations.js';
import type { Credential } from '../auth-session.js';
import type { OperationCall } from '../http/build-request.js';
import type { RunContext } from '../run-context.js';
import type { Unavailable } from '../stateful/fixtures.js';
import type { ReplayPath } from './replay-state.js';

/** A token no backend issued: a recorded 401 that presented one is replayed with it. */
export const INVALID_TOKEN = 'Bearer apikit.invalid.token';

/** Request headers the replay sets itself (or that are the transport's). */
const OWN_HEADERS = new Set([
  'authorization',
  'content-type',
  'accept',
  'content-length',
  'host',
  'connection',
  'accept-encoding',
  'idempotency-key',
  'if-match',
  'if-none-match',
  'if-modified-since',
  'if-unmodified-since',
]);

/** Request headers whose recorded `<varies>` the replay stands in for with a fresh value. */
const FRESH_HEADERS: Record<string, string> = {
  'x-request-id': 'X-Request-Id',
};

/**
 * Why a recorded request cannot be sent as recorded: a value of the moment (`<varies>`,
 * decision 0112) somewhere the replay has no value of its own for. The conditional headers
 * (If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since) get the backend's own
 * validators, Idempotency-Key and X-Request-Id fresh ones; a `<varies>` anywhere else (a body
 * field, a query parameter, another header) is never sent literally: the interaction is
 * skipped naming where it was.
 */
export function unsendable(interaction: RecordedInteraction): Unavailable | undefined {
  const { request } = interaction;
  const where: string[] = [];
  for (const [name, value] of Object.entries(request.headers))
    if (value === VARYING && !OWN_HEADERS.has(name) && !(name in FRESH_HEADERS))
      where.push(`the header ${name}`);
  for (const [name, value] of request.query)
    if (value === VARYING) where.push(`the query parameter ${name}`);
  where.push(...varyingPaths(request.body, '').map((p) => `the body's ${p || 'value'}`));
  if (where.length === 0) return undefined;
  return {
    reason: `its request has a value of the moment the recording masked as "${VARYING}" in ${where.join(', ')}: the replay has no value of its own to send there`,
  };
}

function varyingPaths(value: unknown, path: string): string[] {
  if (value === VARYING) return [path];
  if (Array.isArray(value)) return value.flatMap((x) => varyingPaths(x, `${path}[]`));
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([k, v]) => varyingPaths(v, path ? `${path}.${k}` : k));
}

/**
 * Who replays an interaction (decision 0113): the placeholder stands for a token of the run.
 * A recorded 401 goes without a token (or with one no backend issued, if one was sent), an
 * open operation without one; a recorded 403 of an operation that needs a role
 * (`x-apikit-role`) as the user; anything else as the admin when given (the mocks' demo
 * logins and `auth: 'off'` act as an ADMIN), else the user.
 */
export function replayCredential(
  ctx: RunContext,
  op: SpecOperation,
  interaction: RecordedInteraction,
): Credential | Unavailable {
  const { status } = interaction.response;
  const sentToken = interaction.request.headers['authorization'] !== undefined;
  if (status === 401) return sentToken ? { authorization: INVALID_TOKEN } : 'none';
  if (!acceptsCredentials(op)) return 'none';
  if (status === 403) {
    if (requiredRole(op) === undefined)
      return {
        reason: `the 403 it shows is about who may act on that resource (no x-apikit-role), a state this replay cannot make`,
      };
    return ctx.auth.has('user')
      ? 'user'
      : { reason: 'its 403 needs the user credentials (--username)' };
  }
  if (ctx.auth.has('admin')) return 'admin';
  if (requiredRole(op) !== undefined)
    return {
      reason: `${op.operationId} needs the ${requiredRole(op)} role: give the admin credentials (--admin-username)`,
    };
  return ctx.auth.has('user') ? 'user' : 'none';
}

/** What stands in the replayed request for what the recording had. */
export interface ReplayValues {
  path: ReplayPath;
  /** Unique to this replay: unique fields and Idempotency-Keys are made of it. */
  tag: string;
  /** The access token of the credential the replay uses, for an `access_token` query. */
  accessToken: string | undefined;
  /** The username and password of the credential, for a login's body. */
  login: { username: string; password: string } | undefined;
  /** A refresh token of the run's own (a fresh login's), for a refresh the recording shows. */
  refreshToken: string | undefined;
}

/**
 * The recorded request with the run's values: mapped ids (path, and the same names in the body
 * and query), unique fields made unique where the recording was accepted, placeholders replaced
 * by the run's credentials, a fresh Idempotency-Key (and X-Request-Id). Conditional headers are
 * the caller's; a recorded `<varies>` is never copied (see {@link unsendable}, checked first).
 */
export function replayCall(
  op: SpecOperation,
  interaction: RecordedInteraction,
  values: ReplayValues,
): OperationCall {
  const { request, response } = interaction;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers))
    if (!OWN_HEADERS.has(name) && !(name in FRESH_HEADERS)) headers[name] = value;
  for (const [name, header] of Object.entries(FRESH_HEADERS))
    if (request.headers[name] !== undefined) headers[header] = `apikit-replay-${values.tag}`;
  if (request.headers['idempotency-key'] !== undefined)
    headers['Idempotency-Key'] = `apikit-replay-${values.tag}`;
  let body = request.body === undefined ? undefined : mapBody(request.body, values);
  const unique = uniqueFields(op);
  if (
    unique &&
    isRecord(body) &&
    (response.status < 300 || response.status === unique.conflictStatus)
  )
    body = uniqueValues(body, unique.fields, values.tag);
  const query = request.query
    .map(([name, value]) => [name, mapQueryValue(name, value, values)] as const)
    .map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v).replace(/%2C/gi, ',')}`)
    .join('&');
  return {
    path: values.path.values,
    ...(query ? { rawQuery: query } : {}),
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(request.headers['content-type'] !== undefined
      ? { contentType: request.headers['content-type'] }
      : {}),
    ...(request.headers['accept'] !== undefined ? { accept: request.headers['accept'] } : {}),
  };
}

function mapQueryValue(name: string, value: string, values: ReplayValues): string {
  if (value === PLACEHOLDERS.accessToken) return values.accessToken ?? value;
  const mapped = values.path.mapped.get(name);
  return mapped && mapped[0] === value ? String(mapped[1]) : value;
}

/** Placeholders and ids of the recorded body replaced, recursively. */
function mapBody(body: unknown, values: ReplayValues): unknown {
  if (Array.isArray(body)) return body.map((x) => mapBody(x, values));
  if (!isRecord(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const mapped = values.path.mapped.get(key);
    if (mapped && String(value) === mapped[0]) out[key] = mapped[1];
    else if (value === PLACEHOLDERS.password)
      out[key] =
        values.login && key === 'password' ? values.login.password : `Apikit-${values.tag}-pass1`;
    else if (value === PLACEHOLDERS.accessToken) out[key] = values.accessToken ?? value;
    else if (value === PLACEHOLDERS.refreshToken)
      out[key] = values.refreshToken ?? 'apikit-invalid-refresh-token';
    else out[key] = mapBody(value, values);
  }
  // A login answered as the frontend saw it needs the run's own account.
  if (values.login && out['password'] === values.login.password && 'username' in out)
    out['username'] = values.login.username;
  return out;
}

/** Values of the unique fields made unique to this replay (an email stays an email). */
function uniqueValues(
  body: Record<string, unknown>,
  fields: string[],
  tag: string,
): Record<string, unknown> {
  const out = { ...body };
  for (const field of fields) {
    const value = out[field];
    if (typeof value !== 'string' || value === '') continue;
    const at = value.indexOf('@');
    out[field] = at > 0 ? `${value.slice(0, at)}+r${tag}${value.slice(at)}` : `${value}-r${tag}`;
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
