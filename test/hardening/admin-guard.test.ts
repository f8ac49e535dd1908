import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requiredRole } from '../../spec/apikit-extensions.js';
import { loadSpec } from '../../spec/load-spec.js';
import { listOperations } from '../../spec/operations.js';
import { startTestServer, TEST_JWT_SECRET, type TestServer } from '../start-test-server.js';
import { expectProblem } from '../support/hardening/expect-problem.js';
import { httpCall } from '../support/hardening/http-call.js';

/*
 * A USER token against every ADMIN operation of the spec (/admin/** and role assignment), on
 * every method: the documented method is 403, any other is 405 (or 501 for a method the
 * server does not implement), OPTIONS is the open 204 that changes nothing. Then the state is
 * read back as admin: nothing happened.
 */

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'PROPFIND'] as const;

let server: TestServer;
/** A user the USER would like to unblock. */
let blockedId: number;
/** A user that `/admin/reset` would remove (it is not demo data). */
let markerId: number;
let adminOps: { method: string; path: string; operationId: string }[];

const call = (method: string, path: string, token: string, body?: object) =>
  httpCall({
    method,
    url: `${server.api}${path}`,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

/** A concrete path for a spec template: every target is one whose change would show. */
function concrete(template: string): string {
  if (template.startsWith('/admin/users/{id}/unblock')) return `/admin/users/${blockedId}/unblock`;
  if (template.startsWith('/admin/users/{id}/block')) return '/admin/users/3/block';
  // The USER granting itself ADMIN, or taking it from the admin: both must fail.
  if (template === '/users/{id}/roles/{roleId}') return '/users/2/roles/2';
  if (template.includes('{')) throw new Error(`no concrete path for ${template}`);
  return template;
}

beforeAll(async () => {
  server = await startTestServer();
  const made = await call('POST', '/users', server.adminToken, {
    name: 'Blocked',
    email: 'guard-blocked@example.com',
  });
  blockedId = made.json<{ id: number }>().id;
  expect((await call('POST', `/admin/users/${blockedId}/block`, server.adminToken)).status).toBe(
    200,
  );
  const marker = await call('POST', '/users', server.adminToken, {
    name: 'Marker',
    email: 'guard-marker@example.com',
  });
  markerId = marker.json<{ id: number }>().id;
  adminOps = listOperations(await loadSpec())
    .filter((op) => requiredRole(op) === 'ADMIN')
    .map((op) => ({ method: op.method.toUpperCase(), path: op.path, operationId: op.operationId }));
});

afterAll(async () => {
  await server?.close();
});

describe('ADMIN operations refused to a USER token', () => {
  it('the spec marks every /admin operation and role assignment as ADMIN', async () => {
    const ids = adminOps.map((op) => op.operationId).sort();
    expect(ids).toEqual([
      'assignUserRole',
      'blockUser',
      'removeUserRole',
      'resetData',
      'unblockUser',
    ]);
    const adminPaths = listOperations(await loadSpec()).filter(
      (op) => op.path.startsWith('/admin/') && op.method !== 'options',
    );
    for (const op of adminPaths) expect(ids).toContain(op.operationId);
  });

  it('every method on every ADMIN path: 403 for the operation, 405/501 for the rest', async () => {
    const seen: string[] = [];
    for (const template of new Set(adminOps.map((op) => op.path))) {
      const path = concrete(template);
      const documented = new Set(
        adminOps.filter((op) => op.path === template).map((op) => op.method),
      );
      for (const method of METHODS) {
        const res = await call(method, path, server.userToken);
        seen.push(`${method} ${path} ${res.status}`);
        if (documented.has(method)) {
          expectProblem(res, 403, 'forbidden');
        } else if (method === 'HEAD') {
          expect(res.status).toBe(405); // a HEAD answer has no body to parse
        } else {
          expect([405, 501], `${method} ${path}: ${res.text}`).toContain(res.status);
          expectProblem(res, res.status);
        }
      }
      const options = await call('OPTIONS', path, server.userToken);
      expect(options.status).toBe(204);
    }
    expect(seen.length).toBe(4 * METHODS.length);
    console.info(`as USER: ${seen.join(', ')}`);
  });

  it('a correctly signed USER token claiming role ADMIN is 403 (the role comes from the store)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = jwt.sign(
      { sub: '2', name: 'Uma User', role: 'ADMIN', iat: now, exp: now + 900 },
      TEST_JWT_SECRET,
      { algorithm: 'HS256' },
    );
    for (const op of adminOps) {
      expectProblem(await call(op.method, concrete(op.path), token), 403, 'forbidden');
    }
  });

  it('no other door: role fields in user bodies are 400', async () => {
    for (const [method, path, body] of [
      ['PATCH', '/users/2', { roleIds: [1, 2] }],
      ['PATCH', '/users/2', { roles: ['ADMIN'] }],
      ['PUT', '/users/2', { name: 'Uma User', email: 'user@example.com', roles: ['ADMIN'] }],
      ['POST', '/users', { name: 'Sneaky', email: 'sneaky@example.com', roleIds: [2] }],
    ] as const) {
      const res = await call(method, path, server.userToken, body);
      expectProblem(res, 400, 'validation-failed');
    }
  });

  it('the admin path spelled otherwise is never a way in', async () => {
    const spelled: string[] = [];
    for (const path of [
      '/api/admin/reset',
      '/api/v1/admin/reset/',
      '/api/v1/ADMIN/reset',
      '/api/v1/admin/%72eset',
      '/api/v1/admin/./reset',
      '/api/v1//admin/reset',
      '/api/v1/users/../admin/reset',
      '/api/v1/admin/reset;.json',
      '/api/v1/admin/reset?as=admin',
    ]) {
      const res = await httpCall({
        method: 'POST',
        url: `${server.url}${path}`,
        headers: { Authorization: `Bearer ${server.userToken}` },
      });
      expect([400, 403, 404], `${path}: ${res.status} ${res.text}`).toContain(res.status);
      spelled.push(`${path} ${res.status}`);
    }
    console.info(`POST as USER: ${spelled.join(', ')}`);
  });

  it('nothing happened: no one blocked or unblocked, roles unchanged, no reset', async () => {
    const status = async (id: number) =>
      (await call('GET', `/users/${id}`, server.adminToken)).json<{ status: string }>().status;
    expect(await status(3)).not.toBe('BLOCKED');
    expect(await status(blockedId)).toBe('BLOCKED');
    const roles = async (id: number) =>
      (await call('GET', `/users/${id}/roles`, server.adminToken))
        .json<{ name: string }[]>()
        .map((role) => role.name)
        .sort();
    expect(await roles(2)).toEqual(['USER']);
    expect(await roles(1)).toEqual(['ADMIN', 'USER']);
    expect((await call('GET', `/users/${markerId}`, server.adminToken)).status).toBe(200);
  });
});
