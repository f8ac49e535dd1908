import { getCategory, listCategories } from '../../domain/categories.js';
import {
  assignUserRole,
  listRoles,
  listUserRoles,
  removeUserRole,
  requireRole,
} from '../../domain/roles.js';
import { getUser } from '../../domain/users-service.js';
import type { HandlerGroup } from './handler-table.js';
import { CATALOG_CACHE, representation } from './operation-handler.js';

export const catalogHandlers = {
  listUserRoles: {
    run: (input) => ({ status: 200, body: listUserRoles(input.ctx, input.path.id), etag: 'weak' }),
  },
  assignUserRole: {
    requires(input) {
      getUser(input.ctx, input.path.id);
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
    run: (input) => representation(getCategory(input.ctx, input.path.id), CATALOG_CACHE),
  },
} satisfies HandlerGroup;
