import { ApiProblem } from './api-problem.js';
import type { UserRecord } from './dataset.js';
import type { CreateUserRequest, ReplaceUserRequest, UpdateUserRequest, UserDto } from './dto.js';
import { assertNotLastAdmin } from './last-admin.js';
import type { DomainContext, Principal } from './ports.js';
import { NO_PRECONDITION, type Precondition } from './precondition.js';
import type { Resource } from './resource.js';
import { toUserDto } from './user-dto.js';
import {
  assertEmailAvailable,
  assertMayChangeUser,
  newUserRecord,
  requireUser,
  type UserFields,
} from './user-rules.js';
import type { RepositoryWriter } from '../repository/repository.js';

export { toUserDto } from './user-dto.js';
export {
  listUsers,
  type UserListQuery,
  type UserSortKey,
  type UserSortField,
} from './users-query.js';

/** A user as a resource: what a GET answers and what preconditions are judged against. */
function asResource(user: UserRecord): Resource<UserDto> {
  return { body: toUserDto(user), lastModified: user.updatedAt };
}

function sameFields(a: UserFields, b: UserFields): boolean {
  return a.name === b.name && a.email === b.email && a.age === b.age;
}

/**
 * One user with its modification time; an absent user is 404 `not-found`.
 *
 * @example
 * const { body, lastModified } = await getUser(ctx, 2);
 */
export async function getUser(ctx: DomainContext, id: number): Promise<Resource<UserDto>> {
  return asResource(await requireUser(ctx.repo, id));
}

/**
 * The 403 of "who may act on this user", on its own: the pipeline judges it before
 * preconditions and the body (the contract's check order), with the same rule the writes below
 * apply ({@link assertMayChangeUser}). An absent user passes: absence is judged elsewhere (404,
 * or a PUT that creates).
 *
 * @example
 * await authorizeUserChange(ctx, principal, 1); // a USER on a user holding ADMIN: throws the 403
 */
export async function authorizeUserChange(
  ctx: DomainContext,
  principal: Principal,
  id: number,
): Promise<void> {
  const user = await ctx.repo.user(id);
  if (user) assertMayChangeUser(principal, user);
}

/**
 * Creates a user at the next id: INACTIVE, holding USER, without a password. An email another
 * user has (compared case-insensitively) is 409 `duplicate-email`.
 *
 * @example
 * const user = await createUser(ctx, { name: 'Grace Hopper', email: 'grace@example.com' });
 */
export function createUser(ctx: DomainContext, input: CreateUserRequest): Promise<UserDto> {
  const fields: UserFields = { name: input.name, email: input.email, age: input.age ?? null };
  return ctx.repo.transact(async (tx) => {
    await assertEmailAvailable(tx, fields.email);
    return insertUser(tx, await tx.nextId('users'), fields, ctx.clock().toISOString());
  });
}

async function insertUser(
  tx: RepositoryWriter,
  id: number,
  fields: UserFields,
  now: string,
): Promise<UserDto> {
  const user = newUserRecord(id, fields, now);
  await tx.putUser(user);
  return toUserDto(user);
}

/**
 * `PUT /users/{id}`: replaces name, email and age (age absent or null: null) and keeps status
 * and createdAt; read-only fields of the body are ignored. At an absent id the user is created
 * there as by {@link createUser} (`created: true`). A user who holds ADMIN may be replaced only
 * by an ADMIN (403). A replacement identical to the user writes nothing.
 *
 * @example
 * const { user, created } = await replaceUser(ctx, principal, 100, { name: 'Alan', email: 'alan@example.com' });
 */
export async function replaceUser(
  ctx: DomainContext,
  principal: Principal,
  id: number,
  input: ReplaceUserRequest,
  precondition: Precondition = NO_PRECONDITION,
): Promise<{ user: UserDto; created: boolean }> {
  if (!Number.isSafeInteger(id) || id < 1) {
    // The pipeline validates path ids; this guard keeps a stray caller from corrupting counters.
    throw new ApiProblem('validation-failed', `${id} is not a valid user id.`, {
      errors: [{ pointer: '#/path/id', detail: 'must be a positive integer up to 2^53-1' }],
    });
  }
  const fields: UserFields = { name: input.name, email: input.email, age: input.age ?? null };
  return ctx.repo.transact(async (tx) => {
    const existing = await tx.user(id);
    if (existing) assertMayChangeUser(principal, existing);
    precondition(existing && asResource(existing));
    if (!existing) {
      await assertEmailAvailable(tx, fields.email);
      // An id the client chose: allocation moves past it, so no id is ever handed out twice
      // (one from nextId is past already, and reserving costs PostgreSQL a lock per create).
      await tx.reserveId('users', id);
      return { user: await insertUser(tx, id, fields, ctx.clock().toISOString()), created: true };
    }
    await assertEmailAvailable(tx, fields.email, id);
    if (sameFields(existing, fields)) return { user: toUserDto(existing), created: false };
    const user = { ...existing, ...fields, updatedAt: ctx.clock().toISOString() };
    await tx.putUser(user);
    return { user: toUserDto(user), created: false };
  });
}

/**
 * `PATCH /users/{id}` (JSON merge patch): name, email, age (`age: null` clears it); read-only
 * fields are ignored. A patch that changes nothing observable (`{}` included) writes nothing,
 * so `updatedAt` and the ETag stay. 404 absent, 403 ADMIN target, 409 duplicate email.
 *
 * @example
 * const user = await updateUser(ctx, principal, 2, { age: null });
 */
export function updateUser(
  ctx: DomainContext,
  principal: Principal,
  id: number,
  patch: UpdateUserRequest,
  precondition: Precondition = NO_PRECONDITION,
): Promise<UserDto> {
  return ctx.repo.transact(async (tx) => {
    const current = await requireUser(tx, id);
    assertMayChangeUser(principal, current);
    precondition(asResource(current));
    const next: UserFields = {
      name: patch.name ?? current.name,
      email: patch.email ?? current.email,
      age: patch.age === undefined ? current.age : patch.age,
    };
    if (next.email !== current.email) await assertEmailAvailable(tx, next.email, id);
    if (sameFields(current, next)) return toUserDto(current);
    const user = { ...current, ...next, updatedAt: ctx.clock().toISOString() };
    await tx.putUser(user);
    return toUserDto(user);
  });
}

/**
 * Deletes a user with their orders, the orders' items and their refresh tokens (role links
 * live on the record and go with it; idempotency records stay until they expire). 404 absent,
 * 403 ADMIN target without ADMIN, 409 `conflict` for the last ADMIN.
 *
 * @example
 * await deleteUser(ctx, principal, 5);
 */
export async function deleteUser(
  ctx: DomainContext,
  principal: Principal,
  id: number,
  precondition: Precondition = NO_PRECONDITION,
): Promise<void> {
  await ctx.repo.transact(async (tx) => {
    const user = await requireUser(tx, id);
    assertMayChangeUser(principal, user);
    precondition(asResource(user));
    await assertNotLastAdmin(tx, user);
    await tx.deleteUser(id);
  });
}

/**
 * `POST /users/{id}/activate`: INACTIVE -> ACTIVE. An ACTIVE user is a no-op (nothing
 * written); a BLOCKED one is 409 `invalid-state-transition` (unblock comes first). Activating
 * a user who holds ADMIN needs ADMIN (403), as does every change to such a user.
 *
 * @example
 * const user = await activateUser(ctx, principal, 5); // user.status === 'ACTIVE'
 */
export function activateUser(
  ctx: DomainContext,
  principal: Principal,
  id: number,
): Promise<UserDto> {
  return ctx.repo.transact(async (tx) => {
    const current = await requireUser(tx, id);
    assertMayChangeUser(principal, current);
    if (current.status === 'ACTIVE') return toUserDto(current);
    if (current.status === 'BLOCKED') {
      throw new ApiProblem(
        'invalid-state-transition',
        `User ${id} is BLOCKED and cannot be activated.`,
      );
    }
    const user = { ...current, status: 'ACTIVE' as const, updatedAt: ctx.clock().toISOString() };
    await tx.putUser(user);
    return toUserDto(user);
  });
}
