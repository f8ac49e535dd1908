// The app's openapi-fetch client against apikit/mocks in Vitest's node environment: the
// client's default serializers, the bearer token from a middleware, and problems in `error`.
import { beforeEach, describe, expect, it } from 'vitest';
import { createApi } from './api/client';

const ADMIN = ['admin@example.com', 'admin-demo-password'] as const;

let api: ReturnType<typeof createApi>;
/** The URLs the client sent, as its serializers wrote them. */
let sent: string[];

// openapi-fetch keeps the `fetch` it finds when the client is created, and msw 2 replaces
// globalThis.fetch in server.listen() (the setup file's beforeAll): a client created at import
// time would go past the mocks to the network. One client per test, after listen().
beforeEach(() => {
  api = createApi();
  sent = [];
  api.client.use({
    onRequest({ request }) {
      sent.push(request.url);
    },
  });
});

describe('openapi-fetch with its defaults, typed by user-order-apikit/types', () => {
  it('expand as an array, sent repeated (expand=user&expand=items): 200 with both embedded', async () => {
    await api.login(...ADMIN);
    const { data, error, response } = await api.client.GET('/orders/{id}', {
      params: { path: { id: 1 }, query: { expand: ['user', 'items'] } },
    });
    expect(sent.at(-1)).toBe('http://localhost/api/v1/orders/1?expand=user&expand=items');
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data!.user).toEqual({ id: data!.userId, name: expect.any(String) });
    expect(data!.items!.length).toBeGreaterThan(0);
    expect(data!.items!.every((item) => item.orderId === 1)).toBe(true);
  });

  it('sort as an array, repeated (sort=age%2Cdesc&sort=name): 200 in that order', async () => {
    await api.login(...ADMIN);
    const { data, error, response } = await api.client.GET('/users', {
      params: { query: { sort: ['age,desc', 'name'], size: 10 } },
    });
    expect(sent.at(-1)).toBe('http://localhost/api/v1/users?sort=age%2Cdesc&sort=name&size=10');
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    const ages = data!.content.map((user) => user.age ?? -1);
    expect(ages).toEqual([...ages].sort((a, b) => b - a));
    expect(ages[0]).toBeGreaterThan(ages.at(-1)!);
  });

  it('without a token: a 401 problem in `error`; after login, the middleware’s bearer token: 200', async () => {
    const anonymous = await api.client.GET('/users/{id}', { params: { path: { id: 1 } } });
    expect(anonymous.data).toBeUndefined();
    expect(anonymous.response.status).toBe(401);
    expect(anonymous.response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(anonymous.error).toMatchObject({ status: 401, instance: '/api/v1/users/1' });

    await api.login(...ADMIN);
    const { data, response } = await api.client.GET('/users/{id}', {
      params: { path: { id: 1 } },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toMatch(/^"/);
    expect(data).toMatchObject({ id: 1, email: 'admin@example.com' });
  });

  it('POST /users: 201 with Location, then the same email again: a 409 problem in `error`', async () => {
    await api.login(...ADMIN);
    const body = { name: 'Grace Hopper', email: 'grace@example.com', age: 85 };
    const created = await api.client.POST('/users', { body });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('location')).toBe(`/api/v1/users/${created.data!.id}`);
    expect(created.data).toMatchObject({ ...body, status: 'INACTIVE' });

    const again = await api.client.POST('/users', { body });
    expect(again.data).toBeUndefined();
    expect(again.response.status).toBe(409);
    expect(again.error).toMatchObject({
      type: 'urn:apikit:problem:duplicate-email',
      status: 409,
      instance: '/api/v1/users',
    });
  });

  it('a bad request: the 400 problem in `error` lists every violation', async () => {
    await api.login(...ADMIN);
    const invalid = await api.client.POST('/users', {
      body: { name: '', email: 'nope', age: 12 },
    });
    expect(invalid.response.status).toBe(400);
    expect(invalid.error?.type).toBe('urn:apikit:problem:validation-failed');
    expect(invalid.error?.errors?.map((e) => e.pointer).sort()).toEqual([
      '#/age',
      '#/email',
      '#/name',
    ]);

    const unknown = await api.client.GET('/orders/{id}', {
      // @ts-expect-error the compiler refuses a name the spec does not list
      params: { path: { id: 1 }, query: { expand: ['owner'] } },
    });
    expect(unknown.response.status).toBe(400);
    expect(unknown.error?.errors?.[0]?.pointer).toMatch(/^#\/query\/expand/);
  });
});
