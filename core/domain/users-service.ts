import { ApiProblem } from './api-problem.js';
import { applyChange } from './apply-change.js';
import type { Dataset } from './dataset.js';
import { indexUserEmail, unindexUserEmail } from './email-index.js';
import type { CreateUserRequest, ReplaceUserRequest, UpdateUserRequest, UserDto } from './dto.js';
import { assertNotLastAdmin } from './last-admin.js';
import type { DomainContext, Principal } from './ports.js';
import type { Resource } from './resource.js';
import { toUserDto } from './user-dto.js';
import {
  assertEmailAvailable,
  assertMayChangeUser,
  newUserRecord,
  requireUser,
  type UserFields,
} from './user-rules.js';

export { toUserDto } from './user-dto.js';
export {
  listUsers,
  type UserListQuery,
  type UserSortKey,
  type UserSortField,
} from './users-query.js';

function sameFields(a: UserFields, b: UserFields): boolean {
  return a.name === b.name && a.email === b.email && a.age === b.age;
}

/**
 * One user with its modification time; an absent user is 404 `not-found`.
 *
 * @example
 * const { body, lastModified } = getUser(ctx, 2);
 */
export function getUser(ctx: DomainContext, id: number): Resource<UserDto> {
  const user = requireUser(ctx.store.data, id);
  return { body: toUserDto(user), lastModified: user.updatedAt };
}

/**
 * The 403 of "who may act on this user", on its own: the pipeline judges it before
 * preconditions and the body (the contract's check order), with the same rule the writes below
 * apply ({@link assertMayChangeUser}). An absent user passes: absence is judged elsewhere (404,
 * or a PUT that creates).
 *
 * @example
 * authorizeUserChange(ctx, principal, 1); // a USER on a user holding ADMIN: throws the 403
 */
export function authorizeUserChange(ctx: DomainContext, principal: Principal, id: number): void {
  const user = ctx.store.data.users[String(id)];
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
  return applyChange<UserDto>(ctx.store, (data) => {
    assertEmailAvailable(data, fields.email);
    return {
      apply: () => insertUser(data, ++data.counters.users, fields, ctx.clock().toISOString()),
    };
  });
}

function insertUser(data: Dataset, id: number, fields: UserFields, now: string): UserDto {
  const user = newUserRecord(id, fields, now);
  data.users[String(id)] = user;
  indexUserEmail(data, user);
  // PUT-create may choose any absent id: the counter moves past it so no id is ever reused.
  data.counters.users = Math.max(data.counters.users, id);
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
): Promise<{ user: UserDto; created: boolean }> {
  if (!Number.isSafeInteger(id) || id < 1) {
    // The pipeline validates path ids; this guard keeps a stray caller from corrupting counters.
    throw new ApiProblem('validation-failed', `${id} is not a valid user id.`, {
      errors: [{ pointer: '#/path/id', detail: 'must be a positive integer up to 2^53-1' }],
    });
  }
  const fields: UserFields = { name: input.name, email: input.email, age: input.age ?? null };
  return applyChange<{ user: UserDto; created: boolean }>(ctx.store, (data) => {
    const existing = data.users[String(id)];
    if (!existing) {
      assertEmailAvailable(data, fields.email);
      return {
        apply: () => ({
          user: insertUser(data, id, fields, ctx.clock().toISOString()),
          created: true,
        }),
      };
    }
    assertMayChangeUser(principal, existing);
    assertEmailAvailable(data, fields.email, id);
    if (sameFields(existing, fields))
      return { unchanged: { user: toUserDto(existing), created: false } };
    return {
      apply: () => {
        const previousEmail = existing.email;
        Object.assign(existing, fields, { updatedAt: ctx.clock().toISOString() });
        indexUserEmail(data, existing, previousEmail);
        return { user: toUserDto(existing), created: false };
      },
    };
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
): Promise<UserDto> {
  return applyChange<UserDto>(ctx.store, (data) => {
    const user = requireUser(data, id);
    assertMayChangeUser(principal, user);
    const next: UserFields = {
      name: patch.name ?? user.name,
      email: patch.email ?? user.email,
      age: patch.age === undefined ? user.age : patch.age,
    };
    if (next.email !== user.email) assertEmailAvailable(data, next.email, id);
    if (sameFields(user, next)) return { unchanged: toUserDto(user) };
    return {
      apply: () => {
        const previousEmail = user.email;
        Object.assign(user, next, { updatedAt: ctx.clock().toISOString() });
        indexUserEmail(data, user, previousEmail);
        return toUserDto(user);
      },
    };
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
): Promise<void> {
  await applyChange<void>(ctx.store, (data) => {
    const user = requireUser(data, id);
    assertMayChangeUser(principal, user);
    assertNotLastAdmin(data, user);
    return { apply: () => removeUserCascade(data, id) };
  });
}

function removeUserCascade(data: Dataset, userId: number): void {
  const orderIds = new Set<number>();
  for (const [key, order] of Object.entries(data.orders)) {
    if (order.userId !== userId) continue;
    orderIds.add(order.id);
    delete data.orders[key];
  }
  for (const [key, item] of Object.entries(data.orderItems)) {
    if (orderIds.has(item.orderId)) delete data.orderItems[key];
  }
  for (const [key, token] of Object.entries(data.refreshTokens)) {
    if (token.userId === userId) delete data.refreshTokens[key];
  }
  const user = data.users[String(userId)];
  if (user !== undefined) unindexUserEmail(data, user);
  delete data.users[String(userId)];
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
  return applyChange<UserDto>(ctx.store, (data) => {
    const user = requireUser(data, id);
    assertMayChangeUser(principal, user);
    if (user.status === 'ACTIVE') return { unchanged: toUserDto(user) };
    if (user.status === 'BLOCKED') {
      throw new ApiProblem(
        'invalid-state-transition',
        `User ${id} is BLOCKED and cannot be activated.`,
      );
    }
    return {
      apply: () => {
        user.status = 'ACTIVE';
        user.updatedAt = ctx.clock().toISOString();
        return toUserDto(user);
      },
    };
  });
}
