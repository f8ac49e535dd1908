import { ApiProblem } from './api-problem.js';
import type { Role } from './dto.js';
import { assertNotLastAdmin } from './last-admin.js';
import type { DomainContext } from './ports.js';
import type { Resource } from './resource.js';
import { ADMIN_ROLE_ID, USER_ROLE_ID } from './role-ids.js';
import { requireUser } from './user-rules.js';

/** The fixed role catalog, by id. */
export const ROLES: readonly Role[] = Object.freeze([
  { id: USER_ROLE_ID, name: 'USER' },
  { id: ADMIN_ROLE_ID, name: 'ADMIN' },
]);

/** The role with that id; 404 `not-found` when the catalog has none. */
export function requireRole(roleId: number): Role {
  const role = ROLES.find((candidate) => candidate.id === roleId);
  if (!role) throw new ApiProblem('not-found', `Role ${roleId} does not exist.`);
  return role;
}

/**
 * The role catalog; its modification time is the data set's creation time.
 *
 * @example
 * (await listRoles(ctx)).body; // [{ id: 1, name: 'USER' }, { id: 2, name: 'ADMIN' }]
 */
export async function listRoles(ctx: DomainContext): Promise<Resource<Role[]>> {
  return {
    body: ROLES.map((role) => ({ ...role })),
    lastModified: await ctx.repo.dataSetCreatedAt(),
  };
}

/**
 * The roles a user holds, by id; an absent user is 404.
 *
 * @example
 * await listUserRoles(ctx, 2); // [{ id: 1, name: 'USER' }]
 */
export async function listUserRoles(ctx: DomainContext, userId: number): Promise<Role[]> {
  const user = await requireUser(ctx.repo, userId);
  return ROLES.filter((role) => user.roleIds.includes(role.id)).map((role) => ({ ...role }));
}

/**
 * Gives a user a role; idempotent (a role already held writes nothing). Unknown user or role:
 * 404. The caller's ADMIN role is checked by the pipeline. Roles are not part of UserDto, so
 * `updatedAt` (and the user's ETag) stays.
 *
 * @example
 * await assignUserRole(ctx, 5, ADMIN_ROLE_ID);
 */
export async function assignUserRole(
  ctx: DomainContext,
  userId: number,
  roleId: number,
): Promise<void> {
  await ctx.repo.transact(async (tx) => {
    const user = await requireUser(tx, userId);
    requireRole(roleId);
    if (user.roleIds.includes(roleId)) return;
    await tx.putUser({ ...user, roleIds: [...user.roleIds, roleId].sort((a, b) => a - b) });
  });
}

/**
 * Takes a role from a user. Unknown user or role, or a role not held: 404. USER is never
 * removed, nor ADMIN from the last ADMIN: 409 `conflict`.
 *
 * @example
 * await removeUserRole(ctx, 5, ADMIN_ROLE_ID);
 */
export async function removeUserRole(
  ctx: DomainContext,
  userId: number,
  roleId: number,
): Promise<void> {
  await ctx.repo.transact(async (tx) => {
    const user = await requireUser(tx, userId);
    const role = requireRole(roleId);
    if (!user.roleIds.includes(roleId)) {
      throw new ApiProblem('not-found', `User ${userId} does not hold the role ${role.name}.`);
    }
    if (roleId === USER_ROLE_ID) {
      throw new ApiProblem('conflict', 'Every user holds the USER role; it cannot be removed.');
    }
    if (roleId === ADMIN_ROLE_ID) await assertNotLastAdmin(tx, user);
    await tx.putUser({ ...user, roleIds: user.roleIds.filter((held) => held !== roleId) });
  });
}
