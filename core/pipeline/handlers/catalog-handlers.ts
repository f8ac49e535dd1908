import { getCategory, listCategories } from '../../domain/categories.js';
import {
  assignUserRole,
  listRoles,
  listUserRoles,
  removeUserRole,
  requireRole,
} from '../../domain/roles.js';
import { getUser } from '../../domain/users-service.js';
import type { Resource } from '../../domain/resource.js';
import type { HandlerGroup } from './handler-table.js';
import { CATALOG_CACHE, representation, type OperationResult } from './operation-handler.js';

/**
 * A catalog list: a weak ETag like every list, and (unlike other lists) Last-Modified, the
 * data set's creation time, as the contract fixes for the catalogs, so If-Modified-Since works.
 */
async function catalogList(read: Promise<Resource<unknown[]>>): Promise<OperationResult> {
  const resource = await read;
  return {
    status: 200,
    body: resource.body,
    etag: 'weak',
    lastModified: resource.lastModified,
    cacheControl: CATALOG_CACHE,
  };
}

export const catalogHandlers = {
  listUserRoles: {
    run: async (input) => ({
      status: 200,
      body: await listUserRoles(input.ctx, input.path.id),
      etag: 'weak',
    }),
  },
  assignUserRole: {
    async requires(input) {
      await getUser(input.ctx, input.path.id);
      requireRole(input.path.roleId);
    },
    async run(input) {
      await assignUserRole(input.ctx, input.path.id, input.path.roleId);
      return { status: 204 };
    },
  },
  removeUserRole: {
    async run(input) {
      await removeUserRole(input.ctx, input.path.id, input.path.roleId);
      return { status: 204 };
    },
  },
  listRoles: {
    run: (input) => catalogList(listRoles(input.ctx)),
  },
  listCategories: {
    run: (input) => catalogList(listCategories(input.ctx)),
  },
  getCategory: {
    run: (input) => representation(getCategory(input.ctx, input.path.id), CATALOG_CACHE),
  },
} satisfies HandlerGroup;
