import { ApiProblem } from './api-problem.js';
import type { UserRecord } from './dataset.js';
import { holdsAdmin } from './last-admin.js';
import type { Principal } from './ports.js';
import { USER_ROLE_ID } from './role-ids.js';
import type { RepositoryReader } from '../repository/repository.js';

/**
 * The user with this id, or 404 `not-found` naming it.
 *
 * @example
 * const user = await requireUser(tx, 42);
 */
export async function requireUser(reader: RepositoryReader, id: number): Promise<UserRecord> {
  const user = await reader.user(id);
  if (!user) throw new ApiProblem('not-found', `User ${id} does not exist.`);
  return user;
}

/**
 * Refuses an email another user already has, compared lower-cased (409 `duplicate-email`).
 * `exceptId` is the user being changed, who may keep (or re-case) their own address.
 *
 * @example
 * await assertEmailAvailable(tx, input.email, id);
 */
export async function assertEmailAvailable(
  reader: RepositoryReader,
  email: string,
  exceptId?: number,
): Promise<void> {
  if ((await reader.usersByEmail(email)).some((user) => user.id !== exceptId)) {
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
 * await tx.putUser(newUserRecord(id, { name, email, age: null }, now));
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
