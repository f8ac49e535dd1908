import { expect } from 'vitest';
import type { UserDto } from './fixtures.js';
import type { OperationRow } from './operation-row.js';

/** Rows of the user operations: each documented status but the generic ones. */
export const userRows: OperationRow[] = [
  {
    operationId: 'listUsers',
    status: 200,
    name: 'a filtered page with first, prev, next and last links',
    request: { method: 'GET', path: '/users?status=ACTIVE&size=5&page=1' },
    check(res) {
      const page = res.json<{ content: UserDto[]; page: number; size: number }>();
      expect(page.page).toBe(1);
      expect(page.size).toBe(5);
      expect(page.content.length).toBeGreaterThan(0);
      expect(page.content.every((user) => user.status === 'ACTIVE')).toBe(true);
      const link = res.headers.get('link') ?? '';
      for (const rel of ['first', 'prev', 'next', 'last']) expect(link).toContain(`rel="${rel}"`);
      expect(link).toContain('status=ACTIVE');
    },
  },
  {
    operationId: 'listUsers',
    status: 304,
    name: "If-None-Match with the page's weak ETag",
    setup: async (fx) => ({ etag: await fx.etagOf('/users') }),
    request: { method: 'GET', path: '/users', headers: { 'If-None-Match': '{etag}' } },
  },
  {
    operationId: 'listUsers',
    status: 400,
    name: 'size over 100 and a sort on an unknown field',
    request: { method: 'GET', path: '/users?size=101&sort=password' },
    pointers: ['#/query/size', '#/query/sort'],
  },
  {
    operationId: 'createUser',
    status: 201,
    name: 'a new INACTIVE user; Location resolves to it',
    setup: async (fx) => ({ email: fx.uniqueEmail('grace') }),
    request: {
      method: 'POST',
      path: '/users',
      json: { name: 'Grace Hopper', email: '{email}', age: 40 },
    },
    check(res, { vars }) {
      expect(res.json()).toMatchObject({
        name: 'Grace Hopper',
        email: vars.email,
        age: 40,
        status: 'INACTIVE',
      });
      expect(res.headers.get('location')).toBe(`/api/v1/users/${res.json<UserDto>().id}`);
    },
  },
  {
    operationId: 'createUser',
    status: 400,
    name: 'every body violation listed',
    request: {
      method: 'POST',
      path: '/users',
      json: { name: '', email: 'not-an-email', age: 17, nickname: 'x' },
    },
    pointers: ['#/name', '#/email', '#/age', '#/nickname'],
  },
  {
    operationId: 'createUser',
    status: 409,
    name: 'an email in use, in another case',
    request: { method: 'POST', path: '/users', json: { name: 'Copy', email: 'ADMIN@Example.com' } },
  },
  {
    operationId: 'createUser',
    status: 422,
    name: 'an Idempotency-Key reused with another body',
    async setup(fx) {
      const key = `key-${fx.uniqueEmail()}`;
      await fx.expect(201, 'POST', '/users', {
        headers: { 'Idempotency-Key': key },
        json: { name: 'First', email: fx.uniqueEmail() },
      });
      return { key, email: fx.uniqueEmail() };
    },
    request: {
      method: 'POST',
      path: '/users',
      headers: { 'Idempotency-Key': '{key}' },
      json: { name: 'Second', email: '{email}' },
    },
  },
  {
    operationId: 'getUser',
    status: 200,
    name: 'a demo user with validators',
    request: { method: 'GET', path: '/users/2' },
    check(res) {
      expect(res.json()).toMatchObject({ id: 2, email: 'user@example.com', age: null });
      expect(res.headers.get('etag')).toMatch(/^"/);
    },
  },
  {
    operationId: 'getUser',
    status: 304,
    name: 'If-None-Match with the current ETag',
    setup: async (fx) => ({ etag: await fx.etagOf('/users/2') }),
    request: { method: 'GET', path: '/users/2', headers: { 'If-None-Match': '{etag}' } },
  },
  {
    operationId: 'getUser',
    status: 404,
    name: 'an absent id',
    setup: async (fx) => ({ id: fx.absentId() }),
    request: { method: 'GET', path: '/users/{id}' },
  },
  {
    operationId: 'activateUser',
    status: 200,
    name: 'INACTIVE -> ACTIVE',
    setup: async (fx) => ({ id: (await fx.newUser()).id }),
    request: { method: 'POST', path: '/users/{id}/activate' },
    check(res) {
      expect(res.json()).toMatchObject({ status: 'ACTIVE' });
    },
  },
  {
    operationId: 'activateUser',
    status: 400,
    name: 'a body other than {}',
    request: { method: 'POST', path: '/users/2/activate', json: { force: true } },
    pointers: ['#', '#/force'],
  },
  {
    operationId: 'activateUser',
    status: 403,
    name: 'a USER activating a user who holds ADMIN',
    as: 'user',
    request: { method: 'POST', path: '/users/1/activate' },
  },
  {
    operationId: 'activateUser',
    status: 404,
    name: 'an absent id',
    setup: async (fx) => ({ id: fx.absentId() }),
    request: { method: 'POST', path: '/users/{id}/activate' },
  },
  {
    operationId: 'activateUser',
    status: 409,
    name: 'a BLOCKED user',
    async setup(fx) {
      const { id } = await fx.newUser();
      await fx.block(id);
      return { id };
    },
    request: { method: 'POST', path: '/users/{id}/activate', json: {} },
  },
];
