import { needsCredentials } from '../../../spec/operation-security.js';
import type { RunContext } from '../../run-context.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import {
  logIn,
  logOutAll,
  namesBearerError,
  rolesOf,
  sessionOf,
  tokensOf,
  unknownToken,
  type Session,
} from '../support/session-support.js';
import { describe, isSuccess } from '../support/stateful-support.js';
import { judgeClaims, judgeLifetime } from './session-claims.js';

/**
 * `session_tokens`, where a spec declares `x-apikit-session` (decision 0082): the access token's
 * claims match the user they name; a known username with a wrong password gets
 * `wrongCredentialsStatus`; the username matches in another letter case; logout revokes its
 * refresh token and answers an unknown one like a known one; a token sent in two ways gets
 * `twoWaysStatus`; a 401 names an RFC 6750 error only when a bearer token was presented.
 * Everything it logs in is logged out.
 */
export const sessionTokens: ScenarioCheck = {
  kind: 'scenario',
  name: 'session_tokens',
  description:
    'Where x-apikit-session is declared: token claims, wrong passwords, username case, logout, a token in two ways, error="invalid_token" only for a presented token',
  async run(ctx, record) {
    const session = sessionOf(ctx);
    if (!session) return record.skip(undefined, 'the spec declares no x-apikit-session');
    const selected = (op: typeof session.login | undefined) =>
      op !== undefined && ctx.operations.includes(op);
    // A session the login judgement opened, handed to the logout judgement (one login less).
    const spare = selected(session.login) ? await judgeLogin(ctx, session, record) : undefined;
    if (selected(session.logout)) await judgeLogout(ctx, session, record, spare);
    else await logOutAll(ctx, session, [spare]);
    await judgeBearer(ctx, session, record);
  },
};

/** Judges the login rules; answers the refresh token of a session it left open, if any. */
async function judgeLogin(
  ctx: RunContext,
  session: Session,
  record: CheckRecorder,
): Promise<string | undefined> {
  const { login, decl } = session;
  const credentials = ctx.auth.credentials('user');
  if (!credentials) {
    record.skip(login, 'no username and password were given: no known account to log in');
    return undefined;
  }
  if (decl.claims) {
    for (const who of ['user', 'admin'] as const)
      if (ctx.auth.has(who)) await judgeClaims(ctx, session, who, record, rolesOf(ctx));
  }
  const wrong = await logIn(ctx, session, credentials.username, `${credentials.password}-not-it`);
  if (wrong.response.status === 429) record.skip(login, 'a login was rate limited (429)');
  else if (wrong.response.status !== decl.wrongCredentialsStatus) {
    await logOutAll(ctx, session, [tokensOf(wrong).refresh]);
    record.fail(
      login,
      {
        message: 'a login with a known username and a wrong password was not refused as declared',
        expected: String(decl.wrongCredentialsStatus),
        actual: describe(wrong),
      },
      wrong,
    );
  } else record.pass(login, `a wrong password: ${decl.wrongCredentialsStatus}`, wrong);
  if (!decl.usernameCaseInsensitive) return undefined;
  const { username, password } = credentials;
  const other =
    username === username.toUpperCase() ? username.toLowerCase() : username.toUpperCase();
  if (other === username) {
    record.skip(login, 'the username has no letters to recase');
    return undefined;
  }
  const recased = await logIn(ctx, session, other, password);
  const tokens = tokensOf(recased);
  if (recased.response.status === 429) record.skip(login, 'a login was rate limited (429)');
  else if (!tokens.access)
    record.fail(
      login,
      {
        message: 'the username in another letter case was refused, though it is case-insensitive',
        expected: 'a 2xx with an access token',
        actual: describe(recased),
      },
      recased,
    );
  else {
    record.pass(login, 'the username in another letter case logs in', recased);
    judgeLifetime(session, recased, record);
  }
  return tokens.refresh;
}

async function judgeLogout(
  ctx: RunContext,
  session: Session,
  record: CheckRecorder,
  spare: string | undefined,
) {
  const logout = session.logout!;
  const unknown = await ctx.call(logout, { body: { refreshToken: unknownToken() } }, 'none');
  if (!isSuccess(unknown.response.status))
    record.fail(
      logout,
      {
        message: 'logout with a refresh token the target never issued was refused',
        expected: 'the 2xx of a logout (an unknown token is logged out as well)',
        actual: describe(unknown),
      },
      unknown,
    );
  else record.pass(logout, `an unknown refresh token: ${unknown.response.status}`, unknown);
  const credentials = ctx.auth.credentials('user');
  if (!credentials || !session.refresh) {
    await logOutAll(ctx, session, [spare]);
    return record.skip(
      logout,
      session.refresh
        ? 'no username and password were given: no session of its own to log out'
        : 'the session declares no refresh operation to try a revoked token on',
    );
  }
  const refresh =
    spare ??
    tokensOf(await logIn(ctx, session, credentials.username, credentials.password)).refresh;
  if (!refresh) return record.skip(logout, 'login gave no refresh token');
  const out = await ctx.call(logout, { body: { refreshToken: refresh } }, 'none');
  const after = await ctx.call(session.refresh, { body: { refreshToken: refresh } }, 'none');
  const renewed = tokensOf(after);
  await logOutAll(ctx, session, [renewed.refresh]);
  if (!isSuccess(out.response.status) || isSuccess(after.response.status))
    return record.fail(
      logout,
      {
        message: isSuccess(out.response.status)
          ? 'a refresh token still renewed the session after logout'
          : 'logout of a refresh token login had just given was refused',
        expected: 'logout 2xx, then a refresh with that token refused (401)',
        actual: `logout ${describe(out)}, refresh ${describe(after)}`,
      },
      isSuccess(out.response.status) ? after : out,
    );
  record.pass(logout, `logged out; the token is then refused (${after.response.status})`, after);
}

/** The token in two ways, and the RFC 6750 error only for a presented bearer token. */
async function judgeBearer(ctx: RunContext, session: Session, record: CheckRecorder) {
  const { decl, refresh } = session;
  const probe = ctx.operations.find(
    (op) =>
      op.method === 'get' && needsCredentials(op) && !op.parameters.some((p) => p.in === 'path'),
  );
  if (decl.bearerErrors && probe) {
    const bare = await ctx.call(probe, { authorization: null });
    if (bare.response.status !== 401 || !namesBearerError(bare))
      record.pass(probe, 'no token presented: no bearer error in the challenge', bare);
    else
      record.fail(
        probe,
        {
          message: 'a 401 to a request that presented no token names an RFC 6750 error',
          expected: 'WWW-Authenticate: Bearer realm=… without error= (no token was presented)',
          actual: bare.headers.get('www-authenticate') ?? '',
        },
        bare,
      );
  }
  if (decl.bearerErrors && refresh && ctx.operations.includes(refresh)) {
    const res = await ctx.call(refresh, { body: { refreshToken: unknownToken() } }, 'none');
    if (res.response.status === 401 && namesBearerError(res))
      record.fail(
        refresh,
        {
          message:
            'a refused refresh token (in the body, not a bearer token) got an RFC 6750 error',
          expected: 'WWW-Authenticate without error="invalid_token": no bearer token was presented',
          actual: res.headers.get('www-authenticate') ?? '',
        },
        res,
      );
    else record.pass(refresh, 'an unknown refresh token: no bearer error in the challenge', res);
  }
  if (decl.twoWaysStatus === undefined || !probe) return;
  const token = ctx.auth.has('user') ? await ctx.auth.accessToken('user') : undefined;
  if (!token) return record.skip(probe, 'no credentials: no token to send in two ways');
  const twice = await ctx.call(
    probe,
    { rawQuery: `access_token=${encodeURIComponent(token)}` },
    'user',
  );
  if (twice.response.status !== decl.twoWaysStatus)
    return record.fail(
      probe,
      {
        message: 'a bearer token sent both in Authorization and as access_token was not refused',
        expected: String(decl.twoWaysStatus),
        actual: describe(twice),
      },
      twice,
    );
  record.pass(probe, `a token in two ways: ${decl.twoWaysStatus}`, twice);
}
