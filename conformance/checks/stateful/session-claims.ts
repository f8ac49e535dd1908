import type { RunContext } from '../../run-context.js';
import type { CheckRecorder } from '../check.js';
import { jwtClaims } from '../support/bad-credentials.js';
import { readSubject, roleNames, type Session, type rolesOf } from '../support/session-support.js';
import { describe, isObject, isSuccess, jsonBody } from '../support/stateful-support.js';

/**
 * The claims of the access token of `who` (the run's own session) against the user its `sub`
 * names, read back through the declared subject operation: each declared claim repeats its
 * property, the username property is the login username, the role claim says whether the
 * user holds the declared role, and `iat` and `exp` are integer seconds with `exp` later.
 */
export async function judgeClaims(
  ctx: RunContext,
  session: Session,
  who: 'user' | 'admin',
  record: CheckRecorder,
  roles: ReturnType<typeof rolesOf>,
): Promise<void> {
  const { login } = session;
  const declared = session.decl.claims!;
  const subjectOp = ctx.operation(declared.subject);
  if (!subjectOp)
    return record.skip(login, `the subject operation ${declared.subject} is not in the spec`);
  const token = await ctx.auth.accessToken(who);
  const claims = jwtClaims(token);
  const fail = (actual: string, exchange?: Parameters<CheckRecorder['fail']>[2]) =>
    record.fail(
      login,
      {
        message: `the ${who}'s access token does not say what x-apikit-session declares of its claims`,
        expected: `claims ${Object.keys(declared.fields).join(', ')}${declared.role ? `, ${declared.role.claim}` : ''}, iat, exp matching the user`,
        actual,
      },
      exchange,
    );
  if (!claims) return fail('the access token is not a JWT');
  const wrong: string[] = [];
  if (typeof claims.sub !== 'string')
    wrong.push(`sub is ${JSON.stringify(claims.sub)}, not a string`);
  const subject = await readSubject(ctx, subjectOp, String(claims.sub), who);
  const user = jsonBody(subject);
  if (!isSuccess(subject.response.status) || !isObject(user))
    return fail(`the user its sub names cannot be read: ${describe(subject)}`, subject);
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
    const held = roleNames(
      await ctx.call(list, { path: { [listParam(list)]: String(claims.sub) } }, who),
    );
    const due = held?.includes(declared.role.holder)
      ? declared.role.holder
      : declared.role.otherwise;
    if (held && claims[declared.role.claim] !== due)
      wrong.push(
        `${declared.role.claim} ${JSON.stringify(claims[declared.role.claim])} but the user holds ${held.join(', ')}`,
      );
  }
  if (wrong.length > 0) return fail(wrong.join('; '), subject);
  record.pass(login, `the ${who}'s token claims match the user they name`, subject);
}

function listParam(op: { parameters: { in: string; name: string }[] }): string {
  return op.parameters.find((p) => p.in === 'path')?.name ?? 'id';
}
