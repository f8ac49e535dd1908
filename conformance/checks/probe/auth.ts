import { needsCredentials } from '../../../spec/operation-security.js';
import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { ScenarioCheck } from '../check.js';
import { badCredentials, jwtClaims } from '../support/bad-credentials.js';
import { describeResponse, pathParams, requiredRole, validCall } from '../support/probe-support.js';

/** True when the spec's 401 answer for `op` documents RFC 6750's `error="invalid_token"`. */
export function documentsInvalidToken(op: SpecOperation): boolean {
  const unauthorized = op.responses['401'] ?? op.responses['4XX'];
  if (!unauthorized) return false;
  const header = Object.entries(unauthorized.headers ?? {}).find(
    ([name]) => name.toLowerCase() === 'www-authenticate',
  )?.[1] as OpenAPIV3.HeaderObject | undefined;
  const texts = [
    unauthorized.description,
    header?.description,
    header?.example,
    ...Object.values(header?.examples ?? {}).map((e) => ('value' in e ? e.value : undefined)),
  ];
  return texts.some((t) => typeof t === 'string' && t.includes('invalid_token'));
}

/**
 * True when every way to satisfy the operation's security is a bearer token (HTTP `bearer`,
 * OAuth 2, OpenID Connect): only then are the forged tokens and the Bearer challenge due.
 */
export function bearerOnly(ctx: RunContext, op: SpecOperation): boolean {
  const schemes = ctx.spec.components?.securitySchemes ?? {};
  return op.security.every((requirement) =>
    Object.keys(requirement).some((name) => {
      const scheme = schemes[name] as OpenAPIV3.SecuritySchemeObject | undefined;
      if (!scheme) return false;
      if (scheme.type === 'http') return scheme.scheme.toLowerCase() === 'bearer';
      return scheme.type === 'oauth2' || scheme.type === 'openIdConnect';
    }),
  );
}

/** What is wrong with the answer to a request that must be refused with 401, if anything. */
export function unauthorizedProblem(
  exchange: Exchange,
  presented: boolean,
  invalidToken: boolean,
): string | undefined {
  const challenge = exchange.headers.get('www-authenticate');
  if (exchange.response.status !== 401) return describeResponse(exchange);
  if (!challenge || !/^\s*bearer\b/i.test(challenge))
    return `401 with WWW-Authenticate: ${challenge ?? '(none)'}`;
  if (presented && invalidToken && !/error\s*=\s*"?invalid_token"?/i.test(challenge))
    return `401 with WWW-Authenticate: ${challenge} (no error="invalid_token")`;
  return undefined;
}

/**
 * ignored_auth: every secured operation refuses, with 401 and a `Bearer` challenge, a request
 * without credentials, with a malformed token, a token signed with another key, an `alg: none`
 * token and an expired one (RFC 6750; `error="invalid_token"` for a presented token when the
 * spec documents it). The request is otherwise valid, so nothing else can answer first.
 */
export const ignoredAuth: ScenarioCheck = {
  kind: 'scenario',
  name: 'ignored_auth',
  description: 'Secured operations refuse missing, malformed, forged and expired tokens with 401',
  async run(ctx, record) {
    const ops = ctx.operations.filter(needsCredentials);
    if (ops.length === 0) return record.skip(undefined, 'no selected operation is secured');
    const userToken = ctx.auth.has('user') ? await ctx.auth.accessToken('user') : undefined;
    await ctx.each(ops, async (op) => {
      if (!bearerOnly(ctx, op)) return record.skip(op, 'its security is not (only) a bearer token');
      const params = await pathParams(ctx, op, { shared: true });
      if ('reason' in params) return record.skip(op, params.reason);
      const invalidToken = documentsInvalidToken(op);
      const problems: { name: string; exchange: Exchange; actual: string }[] = [];
      let judged = 0;
      for (const bad of badCredentials(userToken)) {
        if (ctx.stopped()) return;
        const exchange = await ctx.call(op, {
          ...validCall(ctx, op, params),
          authorization: bad.authorization,
        });
        // Rate limits and server errors are not verdicts on authentication (5xx is reported by
        // not_a_server_error).
        if (exchange.response.status === 429 || exchange.response.status >= 500) continue;
        judged++;
        const actual = unauthorizedProblem(exchange, bad.presented, invalidToken);
        if (actual) problems.push({ name: bad.name, exchange, actual });
      }
      const first = problems[0];
      if (first) {
        return record.fail(
          op,
          {
            message: `not refused as unauthenticated: ${problems.map((p) => p.name).join(', ')}`,
            expected: `401 with WWW-Authenticate: Bearer …${invalidToken ? ' error="invalid_token" (for a presented token)' : ''}`,
            actual: `${first.name}: ${first.actual}`,
          },
          first.exchange,
        );
      }
      if (judged === 0) return record.skip(op, 'every answer was a 429 or a 5xx');
      record.pass(op, 'missing, malformed, forged, alg none and expired tokens refused with 401');
    });
  },
};

const claimsRole = (claims: Record<string, unknown> | undefined, role: string) =>
  [claims?.role, claims?.roles, claims?.scope].some((v) =>
    (Array.isArray(v) ? v : String(v ?? '').split(/[\s,]+/)).some(
      (r) => String(r).toUpperCase() === role.toUpperCase(),
    ),
  );

/**
 * admin_role_required: operations marked `x-apikit-role` are refused with 403 to the user's
 * (role-less) token, with real path parameters and a valid body so that 403 is the only due
 * refusal.
 */
export const adminRoleRequired: ScenarioCheck = {
  kind: 'scenario',
  name: 'admin_role_required',
  description: 'Operations that need a role (x-apikit-role) refuse a token without it with 403',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => requiredRole(op));
    if (ops.length === 0)
      return record.skip(undefined, 'no selected operation is marked x-apikit-role');
    if (!ctx.auth.has('user'))
      return ops.forEach((op) => record.skip(op, 'no user credentials were given'));
    const user = jwtClaims(await ctx.auth.accessToken('user'));
    const admin = ctx.auth.has('admin')
      ? jwtClaims(await ctx.auth.accessToken('admin'))
      : undefined;
    const sameAccount = user?.sub !== undefined && user.sub === admin?.sub;
    await ctx.each(ops, async (op) => {
      const role = requiredRole(op)!;
      if (sameAccount || claimsRole(user, role))
        return record.skip(op, `the user's token holds the ${role} role, so it cannot be refused`);
      const params = await pathParams(ctx, op, { shared: true });
      if ('reason' in params) return record.skip(op, params.reason);
      if (ctx.stopped()) return;
      const exchange = await ctx.call(op, validCall(ctx, op, params), 'user');
      const status = exchange.response.status;
      if (status === 429 || status >= 500)
        return record.skip(op, `the answer was ${status}, not a verdict on the role`);
      if (status !== 403) {
        return record.fail(
          op,
          {
            message: `a token without the ${role} role was answered ${status}`,
            expected: '403',
            actual: describeResponse(exchange),
          },
          exchange,
        );
      }
      record.pass(op, `refused without the ${role} role (403)`);
    });
  },
};
