import { expect } from 'vitest';
import { TEST_ADMIN_PASSWORD, TEST_USER_PASSWORD } from '../start-test-server.js';
import type { TokenPair } from './fixtures.js';
import type { OperationRow } from './operation-row.js';

/** Rows of /auth and /admin: each documented status but the generic ones. */
export const accountRows: OperationRow[] = [
  {
    operationId: 'login',
    status: 200,
    name: 'the email is compared case-insensitively; no-store',
    request: {
      method: 'POST',
      path: '/auth/login',
      json: { username: 'USER@example.com', password: TEST_USER_PASSWORD },
    },
    check(res) {
      expect(res.json()).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 });
      expect(res.headers.get('cache-control')).toBe('no-store');
    },
  },
  {
    operationId: 'login',
    status: 400,
    name: 'password missing',
    request: { method: 'POST', path: '/auth/login', json: { username: 'user@example.com' } },
    pointers: ['#/password'],
  },
  {
    operationId: 'login',
    status: 401,
    name: 'a wrong password (no invalid_token: no bearer token was sent)',
    request: {
      method: 'POST',
      path: '/auth/login',
      json: { username: 'admin@example.com', password: `${TEST_ADMIN_PASSWORD}-wrong` },
    },
  },
  {
    operationId: 'login',
    status: 403,
    name: 'a BLOCKED user with the right password',
    async setup(fx) {
      await fx.block(2);
      return {};
    },
    request: {
      method: 'POST',
      path: '/auth/login',
      json: { username: 'user@example.com', password: TEST_USER_PASSWORD },
    },
    async cleanup(fx) {
      await fx.unblock(2);
      await fx.activate(2);
    },
  },
  {
    operationId: 'refreshToken',
    status: 200,
    name: 'rotates the pair',
    setup: async (fx) => ({ refreshToken: (await fx.loginAsUser()).refreshToken }),
    request: { method: 'POST', path: '/auth/refresh', json: { refreshToken: '{refreshToken}' } },
    check(res, { vars }) {
      const pair = res.json<TokenPair>();
      expect(pair.refreshToken).not.toBe(vars.refreshToken);
      expect(pair).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 });
      expect(res.headers.get('cache-control')).toBe('no-store');
    },
  },
  {
    operationId: 'refreshToken',
    status: 400,
    name: 'refreshToken missing',
    request: { method: 'POST', path: '/auth/refresh', json: {} },
    pointers: ['#/refreshToken'],
  },
  {
    operationId: 'refreshToken',
    status: 401,
    name: 'an unknown refresh token (a token in a body is not a bearer token)',
    request: {
      method: 'POST',
      path: '/auth/refresh',
      json: { refreshToken: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
    },
  },
  {
    operationId: 'logout',
    status: 204,
    name: 'revokes the refresh token',
    setup: async (fx) => ({ refreshToken: (await fx.loginAsUser()).refreshToken }),
    request: { method: 'POST', path: '/auth/logout', json: { refreshToken: '{refreshToken}' } },
    async check(_res, { fx, vars }) {
      const refresh = await fx.call('POST', '/auth/refresh', {
        token: null,
        json: { refreshToken: vars.refreshToken },
      });
      expect(refresh.status).toBe(401);
    },
  },
  {
    operationId: 'logout',
    status: 400,
    name: 'refreshToken missing',
    request: { method: 'POST', path: '/auth/logout', json: {} },
    pointers: ['#/refreshToken'],
  },
  {
    operationId: 'blockUser',
    status: 200,
    name: 'any status -> BLOCKED',
    setup: async (fx) => ({ id: (await fx.newUser()).id }),
    request: { method: 'POST', path: '/admin/users/{id}/block' },
    check(res) {
      expect(res.json()).toMatchObject({ status: 'BLOCKED' });
    },
  },
  {
    operationId: 'blockUser',
    status: 400,
    name: 'a body other than {}',
    request: { method: 'POST', path: '/admin/users/2/block', json: { days: 3 } },
    pointers: ['#', '#/days'],
  },
  {
    operationId: 'blockUser',
    status: 403,
    name: 'a USER',
    as: 'user',
    request: { method: 'POST', path: '/admin/users/3/block' },
  },
  {
    operationId: 'blockUser',
    status: 404,
    name: 'an absent user',
    setup: async (fx) => ({ id: fx.absentId() }),
    request: { method: 'POST', path: '/admin/users/{id}/block' },
  },
  {
    operationId: 'blockUser',
    status: 409,
    name: 'the last ADMIN',
    request: { method: 'POST', path: '/admin/users/1/block', json: {} },
  },
  {
    operationId: 'unblockUser',
    status: 200,
    name: 'BLOCKED -> INACTIVE',
    async setup(fx) {
      const { id } = await fx.newUser();
      await fx.block(id);
      return { id };
    },
    request: { method: 'POST', path: '/admin/users/{id}/unblock' },
    check(res) {
      expect(res.json()).toMatchObject({ status: 'INACTIVE' });
    },
  },
  {
    operationId: 'unblockUser',
    status: 400,
    name: 'a body other than {}',
    request: { method: 'POST', path: '/admin/users/2/unblock', json: { now: true } },
    pointers: ['#', '#/now'],
  },
  {
    operationId: 'unblockUser',
    status: 403,
    name: 'a USER',
    as: 'user',
    request: { method: 'POST', path: '/admin/users/9/unblock' },
  },
  {
    operationId: 'unblockUser',
    status: 404,
    name: 'an absent user',
    setup: async (fx) => ({ id: fx.absentId() }),
    request: { method: 'POST', path: '/admin/users/{id}/unblock' },
  },
  {
    operationId: 'resetData',
    status: 204,
    name: 'restores the demo data; ids are not reused',
    setup: async (fx) => ({ id: (await fx.newUser()).id }),
    request: { method: 'POST', path: '/admin/reset' },
    async check(_res, { fx, vars }) {
      expect((await fx.call('GET', `/users/${vars.id}`)).status).toBe(404);
      expect((await fx.call('GET', '/users/2')).json()).toMatchObject({ status: 'ACTIVE' });
      expect((await fx.newUser()).id).toBeGreaterThan(Number(vars.id));
    },
  },
  {
    operationId: 'resetData',
    status: 400,
    name: 'a body other than {}',
    request: { method: 'POST', path: '/admin/reset', json: { seed: 'empty' } },
    pointers: ['#', '#/seed'],
  },
  {
    operationId: 'resetData',
    status: 403,
    name: 'a USER',
    as: 'user',
    request: { method: 'POST', path: '/admin/reset', json: {} },
  },
];
