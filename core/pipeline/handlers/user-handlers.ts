import { ApiProblem } from '../../domain/api-problem.js';
import type { CreateUserRequest, ReplaceUserRequest, UpdateUserRequest } from '../../domain/dto.js';
import type { UserStatus } from '../../domain/dataset.js';
import type { UserSortKey } from '../../domain/users-query.js';
import {
  activateUser,
  createUser,
  deleteUser,
  getUser,
  listUsers,
  replaceUser,
  updateUser,
} from '../../domain/users-service.js';
import {
  caller,
  pathId,
  representation,
  type OperationHandler,
  type OperationInput,
} from './operation-handler.js';
import { pageLinks } from './page-links.js';

/** `sort=name,desc` items (already validated against the spec's pattern) as sort keys. */
function sortKeys(values: unknown): UserSortKey[] {
  return ((values as string[] | undefined) ?? []).map((value) => {
    const [field, direction] = value.split(',');
    return { field, direction: direction ?? 'asc' } as UserSortKey;
  });
}

/** The user, or undefined when absent (PUT may create at that id). */
function currentUser(input: OperationInput) {
  try {
    return getUser(input.ctx, pathId(input));
  } catch (error) {
    if (error instanceof ApiProblem && error.slug === 'not-found') return undefined;
    throw error;
  }
}

export const userHandlers: Record<string, OperationHandler> = {
  listUsers: {
    run(input) {
      const { query } = input;
      const page = listUsers(input.ctx, {
        ...(query.status ? { status: query.status as UserStatus } : {}),
        page: query.page as number,
        size: query.size as number,
        sort: sortKeys(query.sort),
      });
      return {
        status: 200,
        body: page,
        etag: 'weak',
        headers: {
          Link: pageLinks(input.apiPath, input.rawQuery, page.page, page.size, page.totalPages),
        },
      };
    },
  },
  createUser: {
    async run(input) {
      const user = await createUser(input.ctx, input.body as CreateUserRequest);
      return {
        status: 201,
        body: user,
        etag: 'strong',
        lastModified: user.updatedAt,
        location: `/users/${user.id}`,
      };
    },
  },
  getUser: { run: (input) => representation(getUser(input.ctx, pathId(input))) },
  replaceUser: {
    current: currentUser,
    async run(input) {
      const { user, created } = await replaceUser(
        input.ctx,
        caller(input),
        pathId(input),
        input.body as ReplaceUserRequest,
      );
      return created
        ? { status: 201, body: user, location: `/users/${user.id}` }
        : { status: 200, body: user };
    },
  },
  updateUser: {
    current: (input) => getUser(input.ctx, pathId(input)),
    async run(input) {
      const user = await updateUser(
        input.ctx,
        caller(input),
        pathId(input),
        input.body as UpdateUserRequest,
      );
      return { status: 200, body: user, etag: 'strong', lastModified: user.updatedAt };
    },
  },
  deleteUser: {
    current: (input) => getUser(input.ctx, pathId(input)),
    async run(input) {
      await deleteUser(input.ctx, caller(input), pathId(input));
      return { status: 204 };
    },
  },
  activateUser: {
    requires: (input) => void getUser(input.ctx, pathId(input)),
    async run(input) {
      return { status: 200, body: await activateUser(input.ctx, caller(input), pathId(input)) };
    },
  },
};
