import { getCategory, listCategories } from '../../domain/categories.js';
import {
  assignUserRole,
  listRoles,
  listUserRoles,
  removeUserRole,
  requireRole,
} from '../../domain/roles.js';
import { getUser } from '../../domain/users-service.js';
import {
  CATALOG_CACHE,
  pathId,
  representation,
  type OperationHandler,
} from './operation-handler.js';

export const catalogHandlers: Record<string, OperationHandler> = {
  listUserRoles: {
    run: (input) => ({ status: 200, body: listUserRoles(input.ctx, pathId(input)), etag: 'weak' }),
  },
  assignUserRole: {
    requires(input) {
      getUser(input.ctx, pathId(input));
      requireRole(pathId(input, 'roleId'));
    },
    async run(input) {
      await assignUserRole(input.ctx, pathId(input), pathId(input, 'roleId'));
      return { status: 204 };
    },
  },
  removeUserRole: {
    async run(input) {
      await removeUserRole(input.ctx, pathId(input), pathId(input, 'roleId'));
      return { status: 204 };
    },
  },
  listRoles: {
    run: (input) => ({
      status: 200,
      body: listRoles(input.ctx).body,
      etag: 'weak',
      cacheControl: CATALOG_CACHE,
    }),
  },
  listCategories: {
    run: (input) => ({
      status: 200,
      body: listCategories(input.ctx).body,
      etag: 'weak',
      cacheControl: CATALOG_CACHE,
    }),
  },
  getCategory: {
    run: (input) => representation(getCategory(input.ctx, pathId(input)), CATALOG_CACHE),
  },
};
