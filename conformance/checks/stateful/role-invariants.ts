import { stateMachine } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import {
  idParameter,
  roleId,
  roleNames,
  rolesOf,
  sessionOf,
  subjectOf,
} from '../support/session-support.js';
import {
  describe,
  isObject,
  isSuccess,
  jsonBody,
  properties,
  requestSchema,
} from '../support/stateful-support.js';

type Roles = NonNullable<ReturnType<typeof rolesOf>>;

/** An entity tag no representation has: a precondition sure to fail. */
const STALE = '"apikit-stale-precondition"';

/**
 * `role_invariants`, where a spec declares `x-apikit-roles` (decision 0083): removing a
 * `permanent` role from a user the run created is refused with the invariant's status and the
 * role stays; a USER changing the admin account (a holder of the `protected` role) is refused
 * with the protected status, sent so that a target that breaks the rule changes nothing (a PATCH
 * of nothing, a PUT of the values it has, a DELETE only with --allow-destructive and a stale
 * If-Match, which the refusal must come before); with `fixedCatalog`, the catalog answers
 * exactly the first example of its 200 answer.
 */
export const roleInvariants: ScenarioCheck = {
  kind: 'scenario',
  name: 'role_invariants',
  description:
    'Where x-apikit-roles is declared: a fixed catalog, a permanent role cannot be removed; a user holding the protected role is changed only by a holder',
  async run(ctx, record) {
    const roles = rolesOf(ctx);
    if (!roles) return record.skip(undefined, 'the spec declares no x-apikit-roles');
    if (roles.decl.fixedCatalog && ctx.operations.includes(roles.ops.catalog))
      await judgeCatalog(ctx, roles, record);
    if (!ctx.auth.has('admin'))
      return record.skip(roles.ops.remove, 'no admin credentials were given: roles need ADMIN');
    if (ctx.operations.includes(roles.ops.remove)) await judgePermanent(ctx, roles, record);
    await judgeProtected(ctx, roles, record);
  },
};

async function judgePermanent(ctx: RunContext, roles: Roles, record: CheckRecorder) {
  const { remove, list, catalog } = roles.ops;
  for (const invariant of roles.decl.invariants.filter((i) => i.rule === 'permanent')) {
    const made = await ctx.fixtures.paramsFor(list, ctx.auth.has('user') ? 'user' : 'admin');
    if ('reason' in made) return record.skip(remove, made.reason);
    const userParam = idParameter(list) ?? 'id';
    const id = made.parameters[userParam];
    const rid = await roleId(ctx, catalog, invariant.role);
    const roleParam = remove.parameters.find((p) => p.in === 'path' && p.name !== userParam)?.name;
    if (rid === undefined || !roleParam)
      return record.skip(remove, `the role ${invariant.role} is not in the catalog`);
    const res = await ctx.call(remove, { path: { [userParam]: id, [roleParam]: rid } }, 'admin');
    const held = roleNames(await ctx.call(list, { path: { [userParam]: id } }, 'admin'));
    if (res.response.status !== invariant.status || !held?.includes(invariant.role))
      record.fail(
        remove,
        {
          message: `removing the permanent role ${invariant.role} was not refused`,
          expected: `${invariant.status}, the role still held`,
          actual: `${describe(res)}; the user then holds ${held?.join(', ') ?? '(unreadable)'}`,
        },
        res,
      );
    else record.pass(remove, `removing ${invariant.role}: ${invariant.status}, still held`, res);
  }
}

async function judgeProtected(ctx: RunContext, roles: Roles, record: CheckRecorder) {
  const rule = roles.decl.protected;
  const session = sessionOf(ctx);
  const subjectOp = session?.decl.claims && ctx.operation(session.decl.claims.subject);
  const ops = (rule?.operations ?? [])
    .map((id) => ctx.operation(id))
    .filter((op): op is SpecOperation => op !== undefined && ctx.operations.includes(op));
  if (!rule || ops.length === 0 || !subjectOp) return;
  const needed = [roles.ops.list, subjectOp].find((op) => ctx.scope.unavailable(op));
  if (needed)
    return record.skip(
      ops[0],
      `needs ${needed.operationId} to read the accounts, which ${ctx.scope.unavailable(needed)}`,
    );
  if (!ctx.auth.has('user'))
    return record.skip(ops[0], 'no USER credentials: nobody without the role to try it');
  const adminId = subjectOf(await ctx.auth.accessToken('admin'));
  const userId = subjectOf(await ctx.auth.accessToken('user'));
  if (!adminId || !userId) return record.skip(ops[0], 'the access tokens name no subject (sub)');
  const param = idParameter(roles.ops.list) ?? 'id';
  const [adminRoles, userRoles] = await Promise.all(
    [adminId, userId].map(async (id) =>
      roleNames(await ctx.call(roles.ops.list, { path: { [param]: id } }, 'admin')),
    ),
  );
  if (!adminRoles?.includes(rule.role) || userRoles?.includes(rule.role))
    return record.skip(ops[0], `needs an admin account holding ${rule.role} and a USER without it`);
  const current = jsonBody(
    await ctx.call(subjectOp, { path: { [idParameter(subjectOp) ?? 'id']: adminId } }, 'admin'),
  );
  for (const op of ops) {
    const call = harmlessCall(ctx, op, current);
    if (!call) {
      record.skip(op, 'a DELETE of the admin account is tried only with --allow-destructive');
      continue;
    }
    const res = await ctx.call(
      op,
      { ...call, path: { [idParameter(op) ?? 'id']: adminId } },
      'user',
    );
    judgeRefusal(record, op, res, rule.status, rule.role);
  }
}

/** A request that changes nothing even where the rule is broken, or undefined (DELETE). */
function harmlessCall(ctx: RunContext, op: SpecOperation, current: unknown) {
  const headers = { 'If-Match': STALE };
  if (op.method === 'patch') return { headers, body: {} };
  if (op.method === 'put' && isObject(current)) {
    const names = Object.keys(properties(requestSchema(op)));
    return {
      headers,
      body: Object.fromEntries(names.filter((n) => n in current).map((n) => [n, current[n]])),
    };
  }
  if (op.method === 'delete' && ctx.options.allowDestructive) return { headers };
  if (op.method === 'post' && movesToCurrentState(ctx, op, current)) return { headers };
  return undefined;
}

/**
 * Whether `op` is an action of a declared state machine (`x-apikit-state-machine`) that moves
 * the resource to the state it already has, where that is declared a no-op: then even a
 * target that wrongly lets the call through changes nothing (activating an ACTIVE user).
 */
function movesToCurrentState(ctx: RunContext, op: SpecOperation, current: unknown): boolean {
  if (!isObject(current)) return false;
  return ctx.operations.some((create) => {
    const machine = stateMachine(create);
    if (machine?.sameState !== 'noop') return false;
    const state = current[machine.field];
    return machine.transitions.some((t) => t.operation === op.operationId && t.to === state);
  });
}

function judgeRefusal(
  record: CheckRecorder,
  op: SpecOperation,
  res: Exchange,
  status: number,
  role: string,
) {
  if (res.response.status === status)
    return record.pass(op, `a USER changing a ${role} holder: ${status}`, res);
  record.fail(
    op,
    {
      message: `a USER was not refused changing a user who holds ${role} (the refusal comes before a failed precondition)`,
      expected: String(status),
      actual: describe(res),
    },
    res,
  );
}

/** The catalog, read with any credential, against the first example of its 200 answer. */
async function judgeCatalog(ctx: RunContext, roles: Roles, record: CheckRecorder) {
  const { catalog } = roles.ops;
  const media = catalog.responses['200']?.content?.['application/json'];
  const named = Object.values(media?.examples ?? {})[0] as { value?: unknown } | undefined;
  const documented = named?.value ?? media?.example;
  if (documented === undefined)
    return record.skip(catalog, 'the catalog documents no example of its 200 answer to compare');
  const who = ctx.auth.has('user') ? 'user' : ctx.auth.has('admin') ? 'admin' : undefined;
  if (!who) return record.skip(catalog, 'no credentials were given: the catalog is secured');
  const res = await ctx.call(catalog, {}, who);
  if (
    isSuccess(res.response.status) &&
    JSON.stringify(jsonBody(res)) === JSON.stringify(documented)
  )
    return record.pass(catalog, 'the catalog is the documented one', res);
  record.fail(
    catalog,
    {
      message: 'the fixed catalog is not the one its 200 answer documents',
      expected: JSON.stringify(documented),
      actual: `${describe(res)} ${res.response.body.slice(0, 200)}`,
    },
    res,
  );
}
