import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { ScenarioCheck } from '../check.js';
import { restorePlan, unsafeToBlock, type RestorePlan } from './session-guards.js';
import {
  idParameter,
  logIn,
  logOutAll,
  namesBearerError,
  readSubject,
  sessionOf,
  subjectOf,
  tokensOf,
  type Session,
} from '../support/session-support.js';
import { describe, isObject, isSuccess, jsonBody } from '../support/stateful-support.js';

/** One step of the walk: the exchange, whether it is what the contract says, and what that is. */
interface Step {
  op: SpecOperation;
  exchange: Exchange;
  ok: boolean;
  expected: string;
  says: string;
}

/**
 * `session_revocation`, where `x-apikit-session` declares a `suspension` and the run may change
 * the given accounts (--allow-destructive, USER and ADMIN credentials; decision 0082): the ADMIN
 * blocks the USER account; its access token issued before is refused, a login gets
 * `loginStatus` and its refresh token is refused; the ADMIN unblocks it; the same access token
 * works again and a login succeeds in the state unblocking leaves (INACTIVE here); then the
 * account is put back in the state it had, through the state machine declared for the block
 * operation, and every session opened is logged out.
 */
export const sessionRevocation: ScenarioCheck = {
  kind: 'scenario',
  name: 'session_revocation',
  description:
    'With --allow-destructive, where x-apikit-session declares a suspension: a blocked account loses its tokens and cannot log in; unblocking restores them; the account is restored',
  async run(ctx, record) {
    const session = sessionOf(ctx);
    const suspension = session?.decl.suspension;
    const block = suspension && ctx.operation(suspension.block);
    const unblock = suspension && ctx.operation(suspension.unblock);
    if (!session || !suspension || !block || !unblock)
      return record.skip(undefined, 'the spec declares no x-apikit-session suspension');
    if (!ctx.operations.includes(block)) return;
    const credentials = ctx.auth.credentials('user');
    if (!credentials || !ctx.auth.has('admin'))
      return record.skip(block, 'needs USER and admin credentials: it blocks the USER account');
    if (!ctx.options.allowDestructive)
      return record.skip(
        block,
        'blocks and restores the USER account: pass --allow-destructive to let it',
      );
    const first = tokensOf(await logIn(ctx, session, credentials.username, credentials.password));
    const id = subjectOf(first.access);
    const subjectOp = session.decl.claims && ctx.operation(session.decl.claims.subject);
    if (!first.access || !id || !subjectOp) {
      await logOutAll(ctx, session, [first.refresh]);
      return record.skip(block, 'the access token names no subject to block (sub)');
    }
    const unsafe = await unsafeToBlock(ctx, id);
    if (unsafe) {
      await logOutAll(ctx, session, [first.refresh]);
      return record.skip(block, unsafe);
    }
    const plan = restorePlan(ctx, block, unblock, await readSubject(ctx, subjectOp, id, 'admin'));
    if ('reason' in plan) {
      await logOutAll(ctx, session, [first.refresh]);
      return record.skip(block, plan.reason);
    }
    const issued = [first.refresh];
    const steps = await walk(ctx, session, { block, unblock, subjectOp, id, plan, issued }, first);
    await logOutAll(ctx, session, issued);
    for (const step of steps) {
      if (step.ok) record.pass(step.op, step.says, step.exchange);
      else
        record.fail(
          step.op,
          { message: step.says, expected: step.expected, actual: describe(step.exchange) },
          step.exchange,
        );
    }
  },
};

interface Walk {
  block: SpecOperation;
  unblock: SpecOperation;
  subjectOp: SpecOperation;
  id: string;
  plan: RestorePlan;
  issued: (string | undefined)[];
}

type StepRecorder = (
  op: SpecOperation,
  exchange: Exchange,
  ok: boolean,
  expected: string,
  says: string,
) => void;

/** Blocks, judges what a block does, and always unblocks and restores the account. */
async function walk(
  ctx: RunContext,
  session: Session,
  w: Walk,
  first: { access?: string; refresh?: string },
): Promise<Step[]> {
  const path = { [idParameter(w.block) ?? 'id']: w.id };
  const steps: Step[] = [];
  const step: StepRecorder = (op, exchange, ok, expected, says) =>
    steps.push({ op, exchange, ok, expected, says });
  const blocked = await ctx.call(w.block, { path }, 'admin');
  if (!isSuccess(blocked.response.status)) {
    step(w.block, blocked, false, 'a 2xx', 'the admin could not block the USER account');
    return steps;
  }
  try {
    await whileBlocked(ctx, session, w, first, step);
  } finally {
    const unblocked = await ctx.call(w.unblock, { path }, 'admin');
    if (isSuccess(unblocked.response.status))
      await afterUnblock(ctx, session, w, first, step, unblocked);
    else
      step(
        w.unblock,
        unblocked,
        false,
        'a 2xx',
        'the admin could not unblock the USER account: unblock it by hand',
      );
  }
  return steps;
}

/** The token issued before is refused, a login gets loginStatus, the refresh token is refused. */
async function whileBlocked(
  ctx: RunContext,
  session: Session,
  w: Walk,
  first: { access?: string; refresh?: string },
  step: StepRecorder,
): Promise<void> {
  const { refusedStatus: refused, loginStatus } = session.decl.suspension!;
  const { username, password } = ctx.auth.credentials('user')!;
  const read = await readAs(ctx, w, first.access);
  const kept = read.response.status !== refused;
  // RFC 6750: a refused bearer token names error="invalid_token" where the spec says so.
  const unnamed = !kept && session.decl.bearerErrors && !namesBearerError(read);
  step(
    w.block,
    read,
    !kept && !unnamed,
    `${refused}${session.decl.bearerErrors ? ' with WWW-Authenticate error="invalid_token"' : ''}`,
    kept
      ? 'a token issued before the block still works'
      : unnamed
        ? `a token issued before the block is refused, but its challenge names no error="invalid_token": ${read.headers.get('www-authenticate') ?? '(none)'}`
        : 'a token issued before the block is refused at once',
  );
  const login = await logIn(ctx, session, username, password);
  w.issued.push(tokensOf(login).refresh);
  const status = login.response.status;
  step(
    session.login,
    login,
    status === loginStatus,
    String(loginStatus),
    status === loginStatus
      ? `a blocked account's login: ${loginStatus}`
      : `a blocked account's login was not ${loginStatus}`,
  );
  if (!session.refresh) return;
  const renewed = await ctx.call(
    session.refresh,
    { body: { refreshToken: first.refresh } },
    'none',
  );
  w.issued.push(tokensOf(renewed).refresh);
  const ok = renewed.response.status === refused;
  step(
    session.refresh,
    renewed,
    ok,
    String(refused),
    ok
      ? "a blocked account's refresh token is refused"
      : "a blocked account's refresh token still renews",
  );
}

/** The token works again, a login succeeds, and the account is put back in its state. */
async function afterUnblock(
  ctx: RunContext,
  session: Session,
  w: Walk,
  first: { access?: string },
  step: StepRecorder,
  unblocked: Exchange,
): Promise<void> {
  const { username, password } = ctx.auth.credentials('user')!;
  const again = await readAs(ctx, w, first.access);
  const works = isSuccess(again.response.status);
  step(
    w.unblock,
    again,
    works,
    'a 2xx',
    works
      ? 'the token issued before the block works again'
      : 'the token issued before the block is still refused after unblocking',
  );
  const state = jsonBody(unblocked);
  const after = isObject(state) ? String(state[w.plan.field]) : w.plan.original;
  const relogin = await logIn(ctx, session, username, password);
  w.issued.push(tokensOf(relogin).refresh);
  const ok = isSuccess(relogin.response.status);
  step(
    session.login,
    relogin,
    ok,
    'a 2xx',
    ok
      ? `an unblocked (${after}) account logs in`
      : `an unblocked (${after}) account cannot log in`,
  );
  if (after === w.plan.original) return;
  const back = w.plan.back(after);
  const restored =
    back && (await ctx.call(back, { path: { [idParameter(back) ?? 'id']: w.id } }, 'admin'));
  if (!restored || !isSuccess(restored.response.status))
    step(
      w.unblock,
      restored ?? unblocked,
      false,
      `the account back to ${w.plan.original}`,
      `the USER account is left ${after}: put it back to ${w.plan.original} by hand`,
    );
}

/** Reads the account with a bearer token of its own. */
function readAs(ctx: RunContext, w: Walk, access: string | undefined): Promise<Exchange> {
  const path = { [idParameter(w.subjectOp) ?? 'id']: w.id };
  return ctx.call(w.subjectOp, { path, authorization: `Bearer ${access}` });
}
