import { serviceDeclaration } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import {
  logIn,
  readSubject,
  sessionOf,
  subjectOf,
  tokensOf,
  idParameter,
  type Session,
} from '../support/session-support.js';
import { callAs, describe, isSuccess } from '../support/stateful-support.js';

/** What the check needs: the session, the reset, the subject's GET and DELETE, two accounts. */
interface Plan {
  session: Session;
  reset: SpecOperation;
  get: SpecOperation;
  remove: SpecOperation;
  account: { username: string; password: string };
}

function planOf(ctx: RunContext): Plan | { reason: string } {
  const session = sessionOf(ctx);
  const resetId = serviceDeclaration(ctx.spec).reset;
  const reset = resetId ? ctx.operation(resetId) : undefined;
  const get = session?.decl.claims ? ctx.operation(session.decl.claims.subject) : undefined;
  const remove =
    get && ctx.allOperations.find((op) => op.method === 'delete' && op.path === get.path);
  const account = ctx.auth.credentials('user');
  const admin = ctx.auth.credentials('admin');
  if (!session || !get || !remove)
    return { reason: 'the spec declares no session whose token names a user one can delete' };
  if (!reset)
    return { reason: 'the spec declares no x-apikit-service.reset to bring the account back' };
  if (!ctx.options.allowDestructive)
    return {
      reason: 'deletes the USER account and resets the data: pass --allow-destructive to let it',
    };
  if (!account || !admin || account.username.toLowerCase() === admin.username.toLowerCase())
    return { reason: 'needs USER and admin credentials of two accounts' };
  return { session, reset, get, remove, account };
}

const resetData = (ctx: RunContext, reset: SpecOperation) =>
  callAs(ctx, reset, reset.operation.requestBody ? { body: {} } : {});

async function judge(ctx: RunContext, record: CheckRecorder, plan: Plan): Promise<void> {
  const { session, get, remove, account } = plan;
  const refused = session.decl.suspension?.refusedStatus ?? 401;
  // After a reset, a login proves the account belongs to the initial data: a reset restores it.
  if (!isSuccess((await resetData(ctx, plan.reset)).response.status))
    return record.skip(remove, `${plan.reset.operationId} was refused`);
  const login = await logIn(ctx, session, account.username, account.password);
  const token = tokensOf(login).access;
  const id = subjectOf(token);
  if (!token || !id)
    return record.skip(
      remove,
      'the USER account is not in the initial data set: deleting it could not be undone',
    );
  const authorization = `Bearer ${token}`;
  const name = idParameter(remove) ?? 'id';
  const deleted = await ctx.call(remove, { path: { [name]: id } }, 'admin');
  let after: Exchange | undefined;
  let refreshed: Exchange | undefined;
  const refreshToken = tokensOf(login).refresh;
  if (isSuccess(deleted.response.status)) {
    after = await readSubject(ctx, get, id, { authorization });
    // The session's refresh token goes with its user too.
    if (refreshToken && session.refresh && !ctx.scope.unavailable(session.refresh))
      refreshed = await ctx.call(session.refresh, { body: { refreshToken } }, 'none');
  }
  const restored = await resetData(ctx, plan.reset);
  const again = await logIn(ctx, session, account.username, account.password);
  if (!isSuccess(deleted.response.status))
    return record.skip(remove, `deleting the USER account was refused (${describe(deleted)})`);
  if (after && after.response.status !== refused)
    return record.fail(
      remove,
      {
        message: `the access token of a deleted user still answers ${after.response.status}`,
        expected: `${refused} (a token whose user no longer exists is refused)`,
        actual: describe(after),
      },
      after,
    );
  if (refreshed && isSuccess(refreshed.response.status))
    return record.fail(
      remove,
      {
        message: `the refresh token of a deleted user still answers ${refreshed.response.status}`,
        expected: 'refused (a deleted user loses their refresh tokens)',
        actual: describe(refreshed),
      },
      refreshed,
    );
  if (!isSuccess(restored.response.status) || !isSuccess(again.response.status))
    return record.fail(
      remove,
      {
        message: 'the USER account could not log in again after the reset that should restore it',
        expected: 'the reset restores the account, which logs in',
        actual: `reset ${describe(restored)}; login ${describe(again)}`,
      },
      again,
    );
  record.pass(remove, `the deleted user's token: ${refused}; the account restored by a reset`);
}

/**
 * `deleted_user_token`, with --allow-destructive, where the spec declares a session with JWT
 * claims naming a user and `x-apikit-service.reset`: after a reset, the USER account logs in
 * (so it belongs to the initial data and a reset brings it back); the admin deletes it; its
 * access token, used to read its own user, gets the refused status (401), and its refresh token
 * is refused (a deleted user loses their refresh tokens); a second reset
 * restores the account, which logs in again. Skipped for an account a reset would not restore.
 */
export const deletedUserToken: ScenarioCheck = {
  kind: 'scenario',
  name: 'deleted_user_token',
  description:
    "With --allow-destructive and a declared reset: a deleted user's token is refused; the account is restored by a reset",
  async run(ctx, record) {
    const plan = planOf(ctx);
    if ('reason' in plan) return record.skip(undefined, plan.reason);
    await judge(ctx, record, plan);
  },
};
