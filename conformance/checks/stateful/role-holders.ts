import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import { itemsOf, listShape } from '../support/list-shape.js';
import {
  idParameter,
  roleId,
  roleNames,
  rolesOf,
  sessionOf,
  subjectOf,
} from '../support/session-support.js';
import { describe, isObject, isSuccess, jsonBody } from '../support/stateful-support.js';

type Roles = NonNullable<ReturnType<typeof rolesOf>>;

/** At most this many users are read to prove that the admin account is the last holder. */
const MAX_USERS = 500;

/**
 * `role_holders`, with --allow-destructive, where `x-apikit-roles` is declared (decision 0083):
 * `readAtRequest`: the admin gives the USER account the `at-least-one` role; the USER's token
 * issued before is then let through the role operations (assigning the USER a role it holds),
 * and refused with 403 once the role is taken back; `at-least-one`: where the run proves the
 * admin account is the role's only holder (every user's roles read, at most 500 users), removing
 * the role from it is refused with the invariant's status. A target breaking that rule is left
 * without a holder: the failure says so.
 */
export const roleHolders: ScenarioCheck = {
  kind: 'scenario',
  name: 'role_holders',
  description:
    'With --allow-destructive, where x-apikit-roles is declared: a role given or taken applies to tokens already issued; the last holder of an at-least-one role keeps it',
  async run(ctx, record) {
    const roles = rolesOf(ctx);
    const invariant = roles?.decl.invariants.find((i) => i.rule === 'at-least-one');
    if (!roles || !invariant)
      return record.skip(
        undefined,
        'the spec declares no x-apikit-roles with an at-least-one role',
      );
    const { assign, remove } = roles.ops;
    if (!ctx.operations.includes(assign) && !ctx.operations.includes(remove)) return;
    if (!ctx.auth.has('user') || !ctx.auth.has('admin'))
      return record.skip(assign, 'needs USER and admin credentials: it promotes the USER account');
    if (!ctx.options.allowDestructive)
      return record.skip(
        assign,
        `gives and takes ${invariant.role} from the given accounts: pass --allow-destructive to let it`,
      );
    const [userId, adminId] = [
      subjectOf(await ctx.auth.accessToken('user')),
      subjectOf(await ctx.auth.accessToken('admin')),
    ];
    const [rid, baseId] = [
      await roleId(ctx, roles.ops.catalog, invariant.role),
      await roleId(ctx, roles.ops.catalog, permanentRole(roles)),
    ];
    if (!userId || !adminId || rid === undefined)
      return record.skip(
        assign,
        `the tokens name no subject, or ${invariant.role} is not in the catalog`,
      );
    const ids = { user: idParameter(roles.ops.list) ?? 'id', role: roleParam(assign, roles) };
    if (roles.decl.readAtRequest && baseId !== undefined)
      await judgeReadAtRequest(ctx, roles, record, { userId, rid, baseId, ids });
    if (ctx.operations.includes(remove))
      await judgeLastHolder(ctx, roles, record, {
        adminId,
        rid,
        ids,
        status: invariant.status,
        role: invariant.role,
      });
  },
};

function permanentRole(roles: Roles): string {
  return roles.decl.invariants.find((i) => i.rule === 'permanent')?.role ?? 'USER';
}

function roleParam(op: SpecOperation, roles: Roles): string {
  const user = idParameter(roles.ops.list) ?? 'id';
  return op.parameters.find((p) => p.in === 'path' && p.name !== user)?.name ?? 'roleId';
}

interface Ids {
  user: string;
  role: string;
}

async function judgeReadAtRequest(
  ctx: RunContext,
  roles: Roles,
  record: CheckRecorder,
  a: { userId: string; rid: unknown; baseId: unknown; ids: Ids },
) {
  const { assign, remove } = roles.ops;
  const held = roleNames(
    await ctx.call(roles.ops.list, { path: { [a.ids.user]: a.userId } }, 'admin'),
  );
  if (!held || held.some((n) => n !== permanentRole(roles)))
    return record.skip(
      assign,
      'the USER account holds more than the permanent role: nothing to give it',
    );
  const link = (rid: unknown) => ({ path: { [a.ids.user]: a.userId, [a.ids.role]: rid } });
  const token = await ctx.auth.accessToken('user');
  const asUser = () => ctx.call(assign, { ...link(a.baseId), authorization: `Bearer ${token}` });
  const promoted = await ctx.call(assign, link(a.rid), 'admin');
  let during: Exchange | undefined;
  let after: Exchange | undefined;
  try {
    if (isSuccess(promoted.response.status)) during = await asUser();
  } finally {
    const demoted = await ctx.call(remove, link(a.rid), 'admin');
    if (isSuccess(promoted.response.status) && !isSuccess(demoted.response.status))
      record.fail(
        remove,
        {
          message: 'the USER account could not be given back its roles: remove the role by hand',
          expected: 'a 2xx',
          actual: describe(demoted),
        },
        demoted,
      );
    else after = await asUser();
  }
  if (!during || !after)
    return record.skip(
      assign,
      `the admin could not give the USER account the role: ${describe(promoted)}`,
    );
  const ok = isSuccess(during.response.status) && after.response.status === 403;
  if (ok)
    return record.pass(
      assign,
      'a role given or taken applies at once to a token issued before',
      after,
    );
  record.fail(
    assign,
    {
      message:
        "role checks did not read the caller's current roles: a token issued before a promotion or a demotion kept its old rights",
      expected: 'a 2xx while promoted, then 403 once demoted (same token)',
      actual: `promoted: ${describe(during)}; demoted: ${describe(after)}`,
    },
    isSuccess(during.response.status) ? after : during,
  );
}

async function judgeLastHolder(
  ctx: RunContext,
  roles: Roles,
  record: CheckRecorder,
  a: { adminId: string; rid: unknown; ids: Ids; status: number; role: string },
) {
  const { remove } = roles.ops;
  const found = await holdersOf(ctx, roles, a.role);
  if ('reason' in found) return record.skip(remove, found.reason);
  // Users the run made are its own: the role is taken from them first.
  const ours = new Set(
    ctx.fixtures
      .live()
      .filter((r) => r.producer.path === found.collection && isObject(r.body))
      .map((r) => String((r.body as Record<string, unknown>).id)),
  );
  for (const id of found.ids.filter((h) => ours.has(h)))
    await ctx.call(remove, { path: { [a.ids.user]: id, [a.ids.role]: a.rid } }, 'admin');
  const holders = { ids: found.ids.filter((h) => !ours.has(h)) };
  if (holders.ids.length !== 1 || holders.ids[0] !== a.adminId)
    return record.skip(
      remove,
      `the admin account is not the only holder of ${a.role} (${holders.ids.length} hold it): the last-holder rule cannot be tried safely`,
    );
  const path = { [a.ids.user]: a.adminId, [a.ids.role]: a.rid };
  const res = await ctx.call(remove, { path }, 'admin');
  if (res.response.status === a.status)
    return record.pass(remove, `removing ${a.role} from its last holder: ${a.status}`, res);
  const back = isSuccess(res.response.status)
    ? await ctx.call(roles.ops.assign, { path }, 'admin')
    : undefined;
  record.fail(
    remove,
    {
      message: `the last holder of ${a.role} lost it${back && isSuccess(back.response.status) ? ' (given back)' : `: the target has no ${a.role} left, restore it by hand`}`,
      expected: String(a.status),
      actual: describe(res),
    },
    res,
  );
}

/** The ids of every user holding `role`, read through the users list and each user's roles. */
async function holdersOf(
  ctx: RunContext,
  roles: Roles,
  role: string,
): Promise<{ ids: string[]; collection: string } | { reason: string }> {
  const session = sessionOf(ctx);
  const subject = session?.decl.claims && ctx.operation(session.decl.claims.subject);
  const collection = subject?.path.replace(/\/\{[^}]+\}$/, '');
  const lister = ctx.allOperations.find((op) => op.method === 'get' && op.path === collection);
  const shape = lister && listShape(lister);
  if (!lister || !shape || !collection)
    return { reason: 'no list of users to find every holder in' };
  const paged = ['page', 'size'].every((n) => lister.parameters.some((p) => p.name === n));
  const users: unknown[] = [];
  for (let page = 0; users.length < MAX_USERS; page++) {
    const res = await ctx.call(lister, paged ? { query: { page, size: 100 } } : {}, 'admin');
    const items = isSuccess(res.response.status) ? itemsOf(shape, jsonBody(res)) : undefined;
    if (!items) return { reason: `the users list could not be read: ${describe(res)}` };
    users.push(...items);
    if (!paged || items.length < 100) break;
  }
  if (users.length >= MAX_USERS)
    return { reason: `over ${MAX_USERS} users: too many to prove who holds ${role}` };
  const ids: string[] = [];
  await ctx.each(users.filter(isObject), async (user) => {
    const held = roleNames(
      await ctx.call(
        roles.ops.list,
        { path: { [idParameter(roles.ops.list) ?? 'id']: user.id } },
        'admin',
      ),
    );
    if (held?.includes(role)) ids.push(String(user.id));
  });
  return { ids, collection };
}
