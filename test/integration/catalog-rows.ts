import { expect } from 'vitest';
import type { OperationRow } from './operation-row.js';

const ROLES = [
  { id: 1, name: 'USER' },
  { id: 2, name: 'ADMIN' },
];

/** Rows of roles, role links and categories: each documented status but the generic ones. */
export const catalogRows: OperationRow[] = [
  {
    operationId: 'listUserRoles',
    status: 200,
    name: 'the roles of the admin',
    request: { method: 'GET', path: '/users/1/roles' },
    check(res) {
      expect(res.json()).toEqual(ROLES);
    },
  },
  {
    operationId: 'listUserRoles',
    status: 304,
    name: 'If-None-Match with the weak ETag',
    setup: async (fx) => ({ etag: await fx.etagOf('/users/1/roles') }),
    request: { method: 'GET', path: '/users/1/roles', headers: { 'If-None-Match': '{etag}' } },
  },
  {
    operationId: 'listUserRoles',
    status: 404,
    name: 'an absent user',
    setup: async (fx) => ({ id: fx.absentId() }),
    request: { method: 'GET', path: '/users/{id}/roles' },
  },
  {
    operationId: 'assignUserRole',
    status: 204,
    name: 'grants ADMIN to a fresh user',
    setup: async (fx) => ({ id: (await fx.newUser()).id }),
    request: { method: 'PUT', path: '/users/{id}/roles/2' },
    async check(_res, { fx, vars }) {
      expect((await fx.call('GET', `/users/${vars.id}/roles`)).json()).toEqual(ROLES);
    },
    // A second ADMIN would make "the last ADMIN" rows pass for the wrong reason.
    cleanup: async (fx, vars) => void (await fx.call('DELETE', `/users/${vars.id}`)),
  },
  {
    operationId: 'assignUserRole',
    status: 400,
    name: 'a body other than {}',
    request: { method: 'PUT', path: '/users/2/roles/1', json: { since: 'today' } },
    pointers: ['#', '#/since'],
  },
  {
    operationId: 'assignUserRole',
    status: 403,
    name: 'a USER assigning a role',
    as: 'user',
    request: { method: 'PUT', path: '/users/2/roles/2' },
  },
  {
    operationId: 'assignUserRole',
    status: 404,
    name: 'an unknown role',
    request: { method: 'PUT', path: '/users/2/roles/99' },
  },
  {
    operationId: 'removeUserRole',
    status: 204,
    name: 'takes ADMIN from a second admin',
    async setup(fx) {
      const { id } = await fx.newUser();
      await fx.expect(204, 'PUT', `/users/${id}/roles/2`);
      return { id };
    },
    request: { method: 'DELETE', path: '/users/{id}/roles/2' },
    async check(_res, { fx, vars }) {
      expect((await fx.call('GET', `/users/${vars.id}/roles`)).json()).toEqual([ROLES[0]]);
    },
  },
  {
    operationId: 'removeUserRole',
    status: 403,
    name: 'a USER removing a role',
    as: 'user',
    request: { method: 'DELETE', path: '/users/1/roles/2' },
  },
  {
    operationId: 'removeUserRole',
    status: 404,
    name: 'a role the user does not hold',
    request: { method: 'DELETE', path: '/users/2/roles/2' },
  },
  {
    operationId: 'removeUserRole',
    status: 409,
    name: 'the USER role',
    setup: async (fx) => ({ id: (await fx.newUser()).id }),
    request: { method: 'DELETE', path: '/users/{id}/roles/1' },
  },
  {
    operationId: 'listRoles',
    status: 200,
    name: 'the fixed catalog, cacheable for an hour',
    request: { method: 'GET', path: '/roles' },
    check(res) {
      expect(res.json()).toEqual(ROLES);
      expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
    },
  },
  {
    operationId: 'listRoles',
    status: 304,
    name: 'If-None-Match with the weak ETag',
    setup: async (fx) => ({ etag: await fx.etagOf('/roles') }),
    request: { method: 'GET', path: '/roles', headers: { 'If-None-Match': '{etag}' } },
  },
  {
    operationId: 'listCategories',
    status: 200,
    name: 'the fixed catalog',
    request: { method: 'GET', path: '/categories' },
    check(res) {
      expect(res.json<unknown[]>()).toHaveLength(5);
      expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
    },
  },
  {
    operationId: 'listCategories',
    status: 304,
    name: 'If-None-Match with the weak ETag',
    setup: async (fx) => ({ etag: await fx.etagOf('/categories') }),
    request: { method: 'GET', path: '/categories', headers: { 'If-None-Match': '{etag}' } },
  },
  {
    operationId: 'getCategory',
    status: 200,
    name: 'one category',
    request: { method: 'GET', path: '/categories/2' },
    check(res) {
      expect(res.json()).toEqual({ id: 2, name: 'Electronics' });
    },
  },
  {
    operationId: 'getCategory',
    status: 304,
    name: 'If-None-Match with the current ETag',
    setup: async (fx) => ({ etag: await fx.etagOf('/categories/2') }),
    request: { method: 'GET', path: '/categories/2', headers: { 'If-None-Match': '{etag}' } },
  },
  {
    operationId: 'getCategory',
    status: 404,
    name: 'an unknown category',
    request: { method: 'GET', path: '/categories/99' },
  },
];
