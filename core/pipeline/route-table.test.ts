import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../spec/load-spec.js';
import { listOperations } from '../../spec/operations.js';
import { createRouteTable } from './route-table.js';

let table: ReturnType<typeof createRouteTable>;
let templates: string[];

beforeAll(async () => {
  const spec = await loadSpec();
  table = createRouteTable(spec);
  templates = Object.keys(spec.paths);
});

describe('createRouteTable over the contract', () => {
  it('has one route per path of the spec, holding all its operations', async () => {
    const spec = await loadSpec();
    expect(table.routes.map((r) => r.template).sort()).toEqual([...templates].sort());
    for (const op of listOperations(spec)) {
      const route = table.routes.find((r) => r.template === op.path);
      expect(route?.operations.get(op.method.toUpperCase())).toBe(op);
    }
  });

  it.each([
    { path: '/users', template: '/users', params: {} },
    { path: '/users/7', template: '/users/{id}', params: { id: '7' } },
    { path: '/users/abc', template: '/users/{id}', params: { id: 'abc' } },
    { path: '/users/1.json', template: '/users/{id}', params: { id: '1.json' } },
    { path: '/users/%31', template: '/users/{id}', params: { id: '%31' } },
    { path: '/users/1/activate', template: '/users/{id}/activate', params: { id: '1' } },
    {
      path: '/users/2/orders/3',
      template: '/users/{userId}/orders/{orderId}',
      params: { userId: '2', orderId: '3' },
    },
    {
      path: '/users/2/roles/1',
      template: '/users/{id}/roles/{roleId}',
      params: { id: '2', roleId: '1' },
    },
    { path: '/orders/5/cancel', template: '/orders/{id}/cancel', params: { id: '5' } },
    { path: '/admin/reset', template: '/admin/reset', params: {} },
    { path: '/admin/users/4/unblock', template: '/admin/users/{id}/unblock', params: { id: '4' } },
  ])('matches $path to $template', ({ path, template, params }) => {
    const match = table.match(path);
    expect(match?.route.template).toBe(template);
    expect(match?.params).toEqual(params);
  });

  it.each([
    { name: 'a trailing slash', path: '/users/' },
    { name: 'another case', path: '/USERS' },
    { name: 'a file extension', path: '/users.json' },
    { name: 'an empty segment', path: '/users//orders' },
    { name: 'an extra segment', path: '/users/1/orders/2/items' },
    { name: 'an unknown collection', path: '/products' },
    { name: 'the API root', path: '/' },
    { name: 'an empty path', path: '' },
    { name: 'a parameter spanning segments', path: '/orders/1/2' },
    { name: 'the admin prefix alone', path: '/admin' },
  ])('does not match $name ($path)', ({ path }) => {
    expect(table.match(path)).toBeUndefined();
  });

  it.each([
    { path: '/users', allow: 'GET, HEAD, POST, OPTIONS' },
    { path: '/users/1', allow: 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS' },
    { path: '/users/1/activate', allow: 'POST, OPTIONS' },
    { path: '/users/1/orders', allow: 'GET, HEAD, POST, OPTIONS' },
    { path: '/users/1/orders/1', allow: 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS' },
    { path: '/users/1/roles', allow: 'GET, HEAD, OPTIONS' },
    { path: '/users/1/roles/2', allow: 'PUT, DELETE, OPTIONS' },
    { path: '/orders/1', allow: 'GET, HEAD, OPTIONS' },
    { path: '/roles', allow: 'GET, HEAD, OPTIONS' },
    { path: '/auth/login', allow: 'POST, OPTIONS' },
    { path: '/admin/reset', allow: 'POST, OPTIONS' },
  ])('Allow of $path is "$allow"', ({ path, allow }) => {
    expect(table.match(path)?.route.allow).toBe(allow);
  });

  it('lists OPTIONS on every route, and HEAD exactly where GET is', () => {
    for (const route of table.routes) {
      const allow = route.allow.split(', ');
      expect(allow, route.template).toContain('OPTIONS');
      expect(allow.includes('HEAD'), route.template).toBe(route.operations.has('GET'));
      expect(new Set(allow).size, route.template).toBe(allow.length);
    }
  });
});
