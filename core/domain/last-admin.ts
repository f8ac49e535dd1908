import { ApiProblem } from './api-problem.js';
import type { Dataset, UserRecord } from './dataset.js';
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
 * if (isLastAdmin(data, user)) throw new ApiProblem('conflict', 'User 1 is the last ADMIN.');
 */
export function isLastAdmin(data: Dataset, user: UserRecord): boolean {
  if (!holdsAdmin(user) || user.status === 'BLOCKED') return false;
  return !Object.values(data.users).some(
    (other) => other.id !== user.id && holdsAdmin(other) && other.status !== 'BLOCKED',
  );
}

/**
 * Refuses to delete, demote or block the last ADMIN: 409 `conflict`.
 *
 * @example
 * assertNotLastAdmin(data, user);
 */
export function assertNotLastAdmin(data: Dataset, user: UserRecord): void {
  if (isLastAdmin(data, user)) {
    throw new ApiProblem('conflict', `User ${user.id} is the last ADMIN.`);
  }
}
