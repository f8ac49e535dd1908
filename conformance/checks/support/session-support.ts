import { randomBytes } from 'node:crypto';
import {
  rolesDeclaration,
  sessionDeclaration,
  type RolesDeclaration,
  type SessionDeclaration,
} from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import { jwtClaims } from './bad-credentials.js';
import { isObject, isSuccess, jsonBody } from './stateful-support.js';

/** The operations an `x-apikit-session` names, found in the spec. */
export interface Session {
  decl: SessionDeclaration;
  login: SpecOperation;
  refresh: SpecOperation | undefined;
  logout: SpecOperation | undefined;
}

/** The declared session, or undefined when the spec declares none (or names no login). */
export function sessionOf(ctx: RunContext): Session | undefined {
  const decl = sessionDeclaration(ctx.spec);
  const login = decl && ctx.operation(decl.login);
  if (!decl || !login) return undefined;
  const find = (id: string | undefined) => (id ? ctx.operation(id) : undefined);
  return { decl, login, refresh: find(decl.refresh), logout: find(decl.logout) };
}

/** The declared roles with their operations, or undefined when any is missing. */
export function rolesOf(
  ctx: RunContext,
):
  | { decl: RolesDeclaration; ops: Record<'catalog' | 'list' | 'assign' | 'remove', SpecOperation> }
  | undefined {
  const decl = rolesDeclaration(ctx.spec);
  if (!decl) return undefined;
  const [catalog, list, assign, remove] = [decl.catalog, decl.list, decl.assign, decl.remove].map(
    (id) => ctx.operation(id),
  );
  if (!catalog || !list || !assign || !remove) return undefined;
  return { decl, ops: { catalog, list, assign, remove } };
}

/** The tokens of a 2xx token answer. */
export function tokensOf(exchange: Exchange): { access?: string; refresh?: string } {
  const body = jsonBody(exchange);
  if (!isSuccess(exchange.response.status) || !isObject(body)) return {};
  return {
    ...(typeof body.accessToken === 'string' ? { access: body.accessToken } : {}),
    ...(typeof body.refreshToken === 'string' ? { refresh: body.refreshToken } : {}),
  };
}

/** Logs in with a body of the check's making, attributed to the login operation. */
export function logIn(
  ctx: RunContext,
  session: Session,
  username: string,
  password: string,
): Promise<Exchange> {
  return ctx.call(session.login, { body: { username, password } }, 'none');
}

/** Revokes refresh tokens the check was given (best effort, past the report). */
export async function logOutAll(
  ctx: RunContext,
  session: Session,
  tokens: (string | undefined)[],
): Promise<void> {
  if (!session.logout) return;
  for (const refreshToken of tokens.filter(Boolean))
    await ctx.call(session.logout, { body: { refreshToken } }, 'none').catch(() => undefined);
}

/** A refresh token no target issued: 43 base64url characters of fresh randomness. */
export const unknownToken = () => randomBytes(32).toString('base64url');

/** The `sub` claim of an access token (a string), or undefined. */
export function subjectOf(token: string | undefined): string | undefined {
  const sub = jwtClaims(token)?.sub;
  return typeof sub === 'string' || typeof sub === 'number' ? String(sub) : undefined;
}

/** The one path parameter of an operation on a user (its id), by name. */
export function idParameter(op: SpecOperation): string | undefined {
  return op.parameters.find((p) => p.in === 'path')?.name;
}

/** Reads the user with id `id` through `op`, as `authorization` (a Bearer value) or a credential. */
export function readSubject(
  ctx: RunContext,
  op: SpecOperation,
  id: string,
  credential: Parameters<RunContext['call']>[2],
): Promise<Exchange> {
  const name = idParameter(op) ?? 'id';
  return ctx.call(op, { path: { [name]: id } }, credential);
}

/** The names of the roles in a 2xx list answer (`[{ id, name }]`), or undefined. */
export function roleNames(exchange: Exchange): string[] | undefined {
  const body = jsonBody(exchange);
  if (!isSuccess(exchange.response.status) || !Array.isArray(body)) return undefined;
  return body.filter(isObject).map((r) => String(r.name));
}

/** The id of the role named `name` in the catalog, read with `credential`. */
export async function roleId(
  ctx: RunContext,
  catalog: SpecOperation,
  name: string,
): Promise<unknown> {
  const res = await ctx.call(catalog, {}, ctx.auth.has('user') ? 'user' : 'admin');
  const body = jsonBody(res);
  return Array.isArray(body) ? body.filter(isObject).find((r) => r.name === name)?.id : undefined;
}

/** The WWW-Authenticate of an answer names an RFC 6750 error. */
export const namesBearerError = (exchange: Exchange) =>
  /error\s*=/i.test(exchange.headers.get('www-authenticate') ?? '');
