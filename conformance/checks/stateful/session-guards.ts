import { stateMachine } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import { idParameter, roleNames, rolesOf, subjectOf } from '../support/session-support.js';
import { isObject, isSuccess, jsonBody } from '../support/stateful-support.js';

/** What session_revocation needs to know before it blocks the USER account. */

export interface RestorePlan {
  field: string;
  original: string;
  /** The operation bringing the account back from the state unblocking leaves, if needed. */
  back: (after: string) => SpecOperation | undefined;
}

/** How to put the account back: its state field and original state, from the declared machine. */
export function restorePlan(
  ctx: RunContext,
  block: SpecOperation,
  unblock: SpecOperation,
  read: Exchange,
): RestorePlan | { reason: string } {
  const machine = ctx.allOperations
    .map((op) => stateMachine(op))
    .find((m) => m?.transitions.some((t) => t.operation === block.operationId));
  const user = jsonBody(read);
  if (!machine || !isSuccess(read.response.status) || !isObject(user))
    return {
      reason: 'no state machine declares the block operation, so the account could not be restored',
    };
  const original = String(user[machine.field]);
  const blocked = machine.transitions.find((t) => t.operation === block.operationId)?.to;
  if (original === blocked) return { reason: `the USER account is already ${original}` };
  const released = machine.transitions.find(
    (t) => t.operation === unblock.operationId && blocked !== undefined && t.from.includes(blocked),
  )?.to;
  const back = (after: string) => {
    const t = machine.transitions.find((x) => x.from.includes(after) && x.to === original);
    return t ? ctx.operation(t.operation) : undefined;
  };
  if (!released || (released !== original && !back(released)))
    return {
      reason: `no declared transition brings the account back to ${original} after unblocking`,
    };
  return { field: machine.field, original, back };
}

/**
 * Why blocking the USER account could lock the run out, if it could: it is the admin account
 * itself, or it holds a role some user must always hold (it may be the last holder).
 */
export async function unsafeToBlock(ctx: RunContext, id: string): Promise<string | undefined> {
  if (subjectOf(await ctx.auth.accessToken('admin')) === id)
    return 'the USER and admin credentials are one account: blocking it would lock the run out';
  const roles = rolesOf(ctx);
  const kept = roles?.decl.invariants.filter((i) => i.rule === 'at-least-one').map((i) => i.role);
  if (!roles || !kept?.length) return undefined;
  const param = idParameter(roles.ops.list) ?? 'id';
  const held = roleNames(await ctx.call(roles.ops.list, { path: { [param]: id } }, 'admin'));
  const guarded = held?.find((r) => kept.includes(r));
  return guarded
    ? `the USER account holds ${guarded}, which some user must always hold`
    : undefined;
}
