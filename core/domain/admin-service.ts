import { buildSeedDataset, type SeedSource } from './seed-dataset.js';
import type { UserDto } from './dto.js';
import { assertNotLastAdmin } from './last-admin.js';
import type { DomainContext } from './ports.js';
import { toUserDto } from './user-dto.js';
import { requireUser } from './user-rules.js';

/**
 * `POST /admin/users/{id}/block`: any status -> BLOCKED, and every refresh token of the user
 * not yet spent is spent now, so no refresh can outlive the block (access tokens stop working
 * because each request checks the user's status). Already BLOCKED: a no-op. Blocking the last
 * ADMIN is 409 `conflict`. The caller's ADMIN role is checked by the pipeline.
 *
 * @example
 * const user = await blockUser(ctx, 5); // user.status === 'BLOCKED'
 */
export function blockUser(ctx: DomainContext, id: number): Promise<UserDto> {
  return ctx.repo.transact(async (tx) => {
    const current = await requireUser(tx, id);
    if (current.status === 'BLOCKED') return toUserDto(current);
    await assertNotLastAdmin(tx, current);
    const now = ctx.clock().toISOString();
    const user = { ...current, status: 'BLOCKED' as const, updatedAt: now };
    await tx.putUser(user);
    await tx.spendRefreshTokens({ userId: id }, now);
    return toUserDto(user);
  });
}

/**
 * `POST /admin/users/{id}/unblock`: BLOCKED -> INACTIVE (the user activates again as a new
 * user would). Any other status is left alone: an ACTIVE user is never demoted.
 *
 * @example
 * const user = await unblockUser(ctx, 5); // user.status === 'INACTIVE'
 */
export function unblockUser(ctx: DomainContext, id: number): Promise<UserDto> {
  return ctx.repo.transact(async (tx) => {
    const current = await requireUser(tx, id);
    if (current.status !== 'BLOCKED') return toUserDto(current);
    const user = { ...current, status: 'INACTIVE' as const, updatedAt: ctx.clock().toISOString() };
    await tx.putUser(user);
    return toUserDto(user);
  });
}

/**
 * `POST /admin/reset`: replaces users, orders and items with the demo data (or, for a server
 * started on the `empty` seed or on a data set of its own, with that), forgets refresh tokens and idempotency records, and
 * dates the data set now. The id counters never move back, so ids used before the reset are
 * not handed out again.
 *
 * @example
 * await resetData(ctx);
 */
export async function resetData(
  ctx: DomainContext,
  kind: SeedSource = ctx.config.dataSet ?? 'demo',
): Promise<void> {
  // Hashing is slow and asynchronous, so the demo set is built before the transaction.
  const demo = await buildSeedDataset(kind, {
    passwords: ctx.passwords,
    demoPasswords: ctx.config.demoPasswords,
    now: ctx.clock(),
  });
  await ctx.repo.transact((tx) => tx.replaceDataSet(demo));
}
