import { ApiProblem } from '../../domain/api-problem.js';
import type { UserDto } from '../../domain/dto.js';
import type { DomainContext, Principal } from '../../domain/ports.js';
import type { UserSortKey } from '../../domain/users-query.js';
import {
  activateUser,
  authorizeUserChange,
  createUser,
  deleteUser,
  getUser,
  listUsers,
  replaceUser,
  updateUser,
} from '../../domain/users-service.js';
import type { HandlerGroup } from './handler-table.js';
import { caller, filled, representation, type OperationResult } from './operation-handler.js';
import { pageLinks } from './page-links.js';

/**
 * `sort=name,desc` items as sort keys. The spec's pattern (checked by the pipeline) admits
 * only the known fields and directions, but the generated types see a plain string: the one
 * cast left, and it is the pattern's to keep true.
 */
function sortKeys(values: readonly string[] = []): UserSortKey[] {
  return values.map((value) => {
    const [field, direction] = value.split(',');
    return { field, direction: direction ?? 'asc' } as UserSortKey;
  });
}

/** 201 with the new user: also the answer an Idempotency-Key commits with the write. */
function createdUser(user: UserDto): OperationResult {
  return {
    status: 201,
    body: user,
    etag: 'strong',
    lastModified: user.updatedAt,
    location: `/users/${user.id}`,
  };
}

/** 403 before preconditions: only an ADMIN may act on a user who holds ADMIN. */
const authorizes = (input: {
  ctx: DomainContext;
  principal: Principal | undefined;
  path: { id: number };
}) => authorizeUserChange(input.ctx, caller(input), input.path.id);

/** The user, or undefined when absent (PUT may create at that id). */
async function currentUser({ ctx, path }: { ctx: DomainContext; path: { id: number } }) {
  try {
    return await getUser(ctx, path.id);
  } catch (error) {
    if (error instanceof ApiProblem && error.slug === 'not-found') return undefined;
    throw error;
  }
}

export const userHandlers = {
  listUsers: {
    async run(input) {
      const { query } = input;
      const page = await listUsers(input.ctx, {
        ...(query.status ? { status: query.status } : {}),
        page: filled(query.page, 'page'),
        size: filled(query.size, 'size'),
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
    run: async (input) => createdUser(await createUser(input.ctx, input.body)),
    answers: createdUser,
  },
  getUser: { run: (input) => representation(getUser(input.ctx, input.path.id)) },
  replaceUser: {
    authorizes,
    current: currentUser,
    async run(input) {
      const { user, created } = await replaceUser(
        input.ctx,
        caller(input),
        input.path.id,
        input.body,
        input.precondition,
      );
      return created
        ? { status: 201, body: user, location: `/users/${user.id}` }
        : { status: 200, body: user };
    },
  },
  updateUser: {
    authorizes,
    current: (input) => getUser(input.ctx, input.path.id),
    async run(input) {
      const { ctx, path, body, precondition } = input;
      const user = await updateUser(ctx, caller(input), path.id, body, precondition);
      return { status: 200, body: user, etag: 'strong', lastModified: user.updatedAt };
    },
  },
  deleteUser: {
    authorizes,
    current: (input) => getUser(input.ctx, input.path.id),
    async run(input) {
      await deleteUser(input.ctx, caller(input), input.path.id, input.precondition);
      return { status: 204 };
    },
  },
  activateUser: {
    requires: async (input) => void (await getUser(input.ctx, input.path.id)),
    authorizes,
    async run(input) {
      return { status: 200, body: await activateUser(input.ctx, caller(input), input.path.id) };
    },
  },
} satisfies HandlerGroup;
