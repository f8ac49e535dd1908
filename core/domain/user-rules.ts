import { ApiProblem } from './api-problem.js';
import type { Dataset, UserRecord } from './dataset.js';
import { usersWithEmail } from './email-index.js';
import { holdsAdmin } from './last-admin.js';
import type { Principal } from './ports.js';
import { USER_ROLE_ID } from './role-ids.js';

/**
 * The user with this id, or 404 `not-found` naming it.
 *
 * @example
 * const user = requireUser(data, 42);
 */
export function requireUser(data: Dataset, id: number): UserRecord {
  const user = data.users[String(id)];
  if (!user) throw new ApiProblem('not-found', `User ${id} does not exist.`);
  return user;
}

/**
 * Refuses an email another user already has, compared lower-cased (409 `duplicate-email`).
 * `exceptId` is the user being changed, who may keep (or re-case) their own address.
 *
 * @example
 * assertEmailAvailable(data, input.email, id);
 */
export function assertEmailAvailable(data: Dataset, email: string, exceptId?: number): void {
  if (usersWithEmail(data, email).some((user) => user.id !== exceptId)) {
    throw new ApiProblem('duplicate-email', `Another user already has the email ${email}.`);
  }
}

/**
 * Only an ADMIN may change or delete a user who holds ADMIN (403 `forbidden`); otherwise any
 * authenticated caller may, as the contract does not restrict users to themselves.
 *
 * @example
 * assertMayChangeUser(principal, user);
 */
export function assertMayChangeUser(principal: Principal, user: UserRecord): void {
  if (holdsAdmin(user) && !principal.isAdmin) {
    throw new ApiProblem(
      'forbidden',
      `User ${user.id} holds ADMIN; only an ADMIN may change them.`,
    );
  }
}

/** The writable fields of a user, as PUT and PATCH change them. */
export interface UserFields {
  name: string;
  email: string;
  age: number | null;
}

/**
 * A user as POST and PUT-create make them: INACTIVE, holding USER, without a password.
 *
 * @example
 * data.users[String(id)] = newUserRecord(id, { name, email, age: null }, now);
 */
export function newUserRecord(id: number, fields: UserFields, now: string): UserRecord {
  return {
    id,
    name: fields.name,
    email: fields.email,
    age: fields.age,
    status: 'INACTIVE',
    createdAt: now,
    updatedAt: now,
    roleIds: [USER_ROLE_ID],
    passwordHash: null,
  };
}
