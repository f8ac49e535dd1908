import { ApiProblem } from './api-problem.js';
import type { UserRecord } from './dataset.js';
import type { RepositoryReader } from '../repository/repository.js';
import { ADMIN_ROLE_ID } from './role-ids.js';

/** Whether the user holds the ADMIN role (whatever their status). */
export function holdsAdmin(user: UserRecord): boolean {
  return user.roleIds.includes(ADMIN_ROLE_ID);
}

/**
 * Whether the user is the last one who can still act as ADMIN. We count holders of ADMIN who
 * are not BLOCKED: a BLOCKED admin cannot authenticate, so counting them would let two admins
 * block each other in turn and leave nobody able to administer. Deleting, demoting or blocking
 * a BLOCKED admin is therefore allowed; doing so to the last unblocked one is not.
 *
 * @example
 * if (await isLastAdmin(tx, user)) throw new ApiProblem('conflict', 'User 1 is the last ADMIN.');
 */
export async function isLastAdmin(reader: RepositoryReader, user: UserRecord): Promise<boolean> {
  if (!holdsAdmin(user) || user.status === 'BLOCKED') return false;
  return !(await reader.hasOtherUnblockedAdmin(user.id));
}

/**
 * Refuses to delete, demote or block the last ADMIN: 409 `conflict`. Called inside the
 * transaction that makes the change, so that two concurrent demotions cannot both pass.
 *
 * @example
 * await assertNotLastAdmin(tx, user);
 */
export async function assertNotLastAdmin(
  reader: RepositoryReader,
  user: UserRecord,
): Promise<void> {
  if (await isLastAdmin(reader, user)) {
    throw new ApiProblem('conflict', `User ${user.id} is the last ADMIN.`);
  }
}
