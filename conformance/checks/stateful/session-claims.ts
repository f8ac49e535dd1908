import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckRecorder } from '../check.js';
import { jwtClaims } from '../support/bad-credentials.js';
import {
  logIn,
  logOutAll,
  readSubject,
  roleNames,
  tokensOf,
  type Session,
  type rolesOf,
} from '../support/session-support.js';
import { describe, isObject, isSuccess, jsonBody } from '../support/stateful-support.js';

type Roles = ReturnType<typeof rolesOf>;

/**
 * The claims of the access token of `who` (the run's own session) against the user its `sub`
 * names, read back through the declared subject operation: each declared claim repeats its
 * property, the username property is the login username, the role claim says whether the
 * user holds the declared role, and `iat` and `exp` are integer seconds with `exp` later.
 * Claims say what held at issue: where they differ, a token issued now is judged instead, so
 * that a user renamed or promoted since the run's login is no failure.
 */
export async function judgeClaims(
  ctx: RunContext,
  session: Session,
  who: 'user' | 'admin',
  record: CheckRecorder,
  roles: Roles,
): Promise<void> {
  const { login } = session;
  const subjectOp = ctx.operation(session.decl.claims!.subject);
  if (!subjectOp)
    return record.skip(
      login,
      `the subject operation ${session.decl.claims!.subject} is not in the spec`,
    );
  const unreadable = ctx.scope.unavailable(subjectOp);
  if (unreadable)
    return record.skip(
      login,
      `the claims are read back through ${subjectOp.operationId}, which ${unreadable}`,
    );
  // The role claim is judged only where the scope holds the operation listing roles.
  if (roles && ctx.scope.unavailable(roles.ops.list)) roles = undefined;
  let found = await claimProblems(
    ctx,
    session,
    subjectOp,
    who,
    await ctx.auth.accessToken(who),
    roles,
  );
  const credentials = ctx.auth.credentials(who);
  if (found.wrong.length > 0 && credentials) {
    const fresh = tokensOf(await logIn(ctx, session, credentials.username, credentials.password));
    if (fresh.access)
      found = await claimProblems(ctx, session, subjectOp, who, fresh.access, roles);
    await logOutAll(ctx, session, [fresh.refresh]);
  }
  if (found.wrong.length === 0)
    return record.pass(login, `the ${who}'s token claims match the user they name`, found.subject);
  const declared = session.decl.claims!;
  record.fail(
    login,
    {
      message: `the ${who}'s access token does not say what x-apikit-session declares of its claims`,
      expected: `claims ${Object.keys(declared.fields).join(', ')}${declared.role ? `, ${declared.role.claim}` : ''}, iat, exp matching the user`,
      actual: found.wrong.join('; '),
    },
    found.subject,
  );
}

/** What is wrong with the claims of `token`, and the read of the user they name. */
async function claimProblems(
  ctx: RunContext,
  session: Session,
  subjectOp: SpecOperation,
  who: 'user' | 'admin',
  token: string | undefined,
  roles: Roles,
): Promise<{ wrong: string[]; subject?: Exchange }> {
  const declared = session.decl.claims!;
  const claims = jwtClaims(token);
  if (!claims) return { wrong: ['the access token is not a JWT'] };
  const wrong: string[] = [];
  if (typeof claims.sub !== 'string')
    wrong.push(`sub is ${JSON.stringify(claims.sub)}, not a string`);
  const subject = await readSubject(ctx, subjectOp, String(claims.sub), who);
  const user = jsonBody(subject);
  if (!isSuccess(subject.response.status) || !isObject(user))
    return { wrong: [`the user its sub names cannot be read: ${describe(subject)}`], subject };
  for (const [claim, property] of Object.entries(declared.fields))
    if (String(claims[claim]) !== String(user[property]))
      wrong.push(
        `${claim} ${JSON.stringify(claims[claim])} but ${property} ${JSON.stringify(user[property])}`,
      );
  const username = ctx.auth.credentials(who)?.username;
  if (declared.username && username)
    if (String(user[declared.username]).toLowerCase() !== username.toLowerCase())
      wrong.push(`sub names ${String(user[declared.username])}, not the account logged in`);
  for (const time of ['iat', 'exp'])
    if (!Number.isInteger(claims[time])) wrong.push(`${time} is ${JSON.stringify(claims[time])}`);
  if (Number(claims.exp) <= Number(claims.iat)) wrong.push('exp is not after iat');
  if (declared.role && roles) {
    const list = roles.ops.list;
    const param = list.parameters.find((p) => p.in === 'path')?.name ?? 'id';
    const held = roleNames(await ctx.call(list, { path: { [param]: String(claims.sub) } }, who));
    const due = held?.includes(declared.role.holder)
      ? declared.role.holder
      : declared.role.otherwise;
    if (held && claims[declared.role.claim] !== due)
      wrong.push(
        `${declared.role.claim} ${JSON.stringify(claims[declared.role.claim])} but the user holds ${held.join(', ')}`,
      );
  }
  return { wrong, subject };
}

/**
 * Where `x-apikit-session.claims.lifetime` names the token answer's lifetime property: it is
 * the access token's `exp - iat` in seconds (a lifetime in milliseconds or minutes is not).
 */
export function judgeLifetime(session: Session, login: Exchange, record: CheckRecorder): void {
  const property = session.decl.claims?.lifetime;
  const body = jsonBody(login);
  if (!property || !isObject(body)) return;
  const claims = jwtClaims(typeof body.accessToken === 'string' ? body.accessToken : undefined);
  if (!claims || !Number.isInteger(claims.exp) || !Number.isInteger(claims.iat)) return;
  const lifetime = Number(claims.exp) - Number(claims.iat);
  if (body[property] === lifetime)
    return record.pass(session.login, `${property} is the token's lifetime (${lifetime} s)`, login);
  record.fail(
    session.login,
    {
      message: `the login answer's ${property} is not the access token's lifetime in seconds`,
      expected: `${property}: ${lifetime} (exp - iat of the access token it gives)`,
      actual: `${property}: ${JSON.stringify(body[property])}`,
    },
    login,
  );
}
