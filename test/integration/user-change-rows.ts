import { expect } from 'vitest';
import type { OperationRow } from './operation-row.js';

const STALE_ETAG = '"stale-etag"';

/** Rows of PUT, PATCH and DELETE of users: each documented status but the generic ones. */
export const userChangeRows: OperationRow[] = [
  {
    operationId: 'replaceUser',
    status: 200,
    name: 'replaces name and email; unsent age becomes null; no validators',
    setup: async (fx) => ({ id: (await fx.newUser({ age: 30 })).id, email: fx.uniqueEmail() }),
    request: { method: 'PUT', path: '/users/{id}', json: { name: 'Replaced', email: '{email}' } },
    check(res, { vars }) {
      expect(res.json()).toMatchObject({
        id: vars.id,
        name: 'Replaced',
        age: null,
        status: 'INACTIVE',
      });
      expect(res.headers.get('etag')).toBeNull();
      expect(res.headers.get('last-modified')).toBeNull();
    },
  },
  {
    operationId: 'replaceUser',
    status: 201,
    name: 'creates at an absent id with Location',
    setup: async (fx) => ({ id: fx.createId(), email: fx.uniqueEmail() }),
    request: {
      method: 'PUT',
      path: '/users/{id}',
      json: { name: 'Put Created', email: '{email}' },
    },
    check(res, { vars }) {
      expect(res.json()).toMatchObject({ id: vars.id, status: 'INACTIVE', age: null });
      expect(res.headers.get('location')).toBe(`/api/v1/users/${vars.id}`);
    },
  },
  {
    operationId: 'replaceUser',
    status: 400,
    name: 'email missing',
    request: { method: 'PUT', path: '/users/2', json: { name: 'No Email' } },
    pointers: ['#/email'],
  },
  {
    operationId: 'replaceUser',
    status: 403,
    name: 'a USER replacing a user who holds ADMIN',
    as: 'user',
    request: { method: 'PUT', path: '/users/1', json: { name: 'Ada', email: 'admin@example.com' } },
  },
  {
    operationId: 'replaceUser',
    status: 409,
    name: "another user's email",
    setup: async (fx) => ({ id: (await fx.newUser()).id }),
    request: {
      method: 'PUT',
      path: '/users/{id}',
      json: { name: 'Clash', email: 'User@Example.com' },
    },
  },
  {
    operationId: 'replaceUser',
    status: 412,
    name: 'If-Match that does not match',
    setup: async (fx) => ({ id: (await fx.newUser()).id, email: fx.uniqueEmail() }),
    request: {
      method: 'PUT',
      path: '/users/{id}',
      headers: { 'If-Match': STALE_ETAG },
      json: { name: 'Late', email: '{email}' },
    },
  },
  {
    operationId: 'deleteUser',
    status: 204,
    name: 'deletes a user; a GET is then 404',
    setup: async (fx) => ({ id: (await fx.newUser()).id }),
    request: { method: 'DELETE', path: '/users/{id}' },
    async check(_res, { fx, vars }) {
      expect((await fx.call('GET', `/users/${vars.id}`)).status).toBe(404);
    },
  },
  {
    operationId: 'deleteUser',
    status: 403,
    name: 'a USER deleting a user who holds ADMIN',
    as: 'user',
    request: { method: 'DELETE', path: '/users/1' },
  },
  {
    operationId: 'deleteUser',
    status: 404,
    name: 'an absent id',
    setup: async (fx) => ({ id: fx.absentId() }),
    request: { method: 'DELETE', path: '/users/{id}' },
  },
  {
    operationId: 'deleteUser',
    status: 409,
    name: 'the last ADMIN',
    request: { method: 'DELETE', path: '/users/1' },
  },
  {
    operationId: 'deleteUser',
    status: 412,
    name: 'If-Match that does not match',
    setup: async (fx) => ({ id: (await fx.newUser()).id }),
    request: { method: 'DELETE', path: '/users/{id}', headers: { 'If-Match': STALE_ETAG } },
  },
  {
    operationId: 'updateUser',
    status: 200,
    name: 'merge patch age: null clears it, with validators',
    setup: async (fx) => ({ id: (await fx.newUser({ age: 33 })).id }),
    request: {
      method: 'PATCH',
      path: '/users/{id}',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      raw: JSON.stringify({ age: null, name: 'Patched' }),
    },
    check(res) {
      expect(res.json()).toMatchObject({ name: 'Patched', age: null });
    },
  },
  {
    operationId: 'updateUser',
    status: 400,
    name: 'name: null and age under 18',
    request: { method: 'PATCH', path: '/users/2', json: { name: null, age: 10 } },
    pointers: ['#/name', '#/age'],
  },
  {
    operationId: 'updateUser',
    status: 403,
    name: 'a USER changing a user who holds ADMIN',
    as: 'user',
    request: { method: 'PATCH', path: '/users/1', json: { name: 'Not Ada' } },
  },
  {
    operationId: 'updateUser',
    status: 404,
    name: 'an absent id',
    setup: async (fx) => ({ id: fx.absentId() }),
    request: { method: 'PATCH', path: '/users/{id}', json: { name: 'Nobody' } },
  },
  {
    operationId: 'updateUser',
    status: 409,
    name: "another user's email",
    setup: async (fx) => ({ id: (await fx.newUser()).id }),
    request: { method: 'PATCH', path: '/users/{id}', json: { email: 'user@EXAMPLE.com' } },
  },
  {
    operationId: 'updateUser',
    status: 412,
    name: 'If-Match that does not match',
    setup: async (fx) => ({ id: (await fx.newUser()).id }),
    request: {
      method: 'PATCH',
      path: '/users/{id}',
      headers: { 'If-Match': STALE_ETAG },
      json: { name: 'Late' },
    },
  },
];
