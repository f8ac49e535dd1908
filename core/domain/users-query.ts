import type { UserStatus } from './dataset.js';
import type { UserPage } from './dto.js';
import type { DomainContext } from './ports.js';
import { toUserDto } from './user-dto.js';
import type { UserSortKey } from '../repository/repository.js';

export type { UserSortField, UserSortKey } from '../repository/repository.js';

/** `GET /users` after validation: filter, zero-based page, page size, sort keys in order. */
export interface UserListQuery {
  status?: UserStatus;
  page: number;
  size: number;
  sort: UserSortKey[];
}

/**
 * One page of users: filtered by status, sorted (by id when no key is given), then cut. A page
 * past the end has empty `content` but the true totals.
 *
 * @example
 * await listUsers(ctx, { status: 'ACTIVE', page: 0, size: 20, sort: [{ field: 'name', direction: 'asc' }] });
 */
export async function listUsers(ctx: DomainContext, query: UserListQuery): Promise<UserPage> {
  const { users, total } = await ctx.repo.listUsers({
    ...(query.status ? { status: query.status } : {}),
    sort: query.sort,
    offset: query.page * query.size,
    limit: query.size,
  });
  return {
    content: users.map(toUserDto),
    totalElements: total,
    totalPages: Math.ceil(total / query.size),
    page: query.page,
    size: query.size,
  };
}
