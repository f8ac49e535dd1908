import { mock } from './test/mock-server';
import { login } from './test/login';

let created;

test('logs in with the demo account and lists the users', async () => {
  const auth = await login();
  const res = await fetch('/api/v1/users?size=5', { headers: auth });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json');
  const page = await res.json();
  expect(page.content).toHaveLength(5);
  expect(page.totalElements).toBe(36);
});

test('answers 304 to If-None-Match with the ETag it sent', async () => {
  const auth = await login();
  const first = await fetch('/api/v1/users/1', { headers: auth });
  const etag = first.headers.get('etag');
  expect(etag).toMatch(/^"/);
  const again = await fetch('/api/v1/users/1', { headers: { ...auth, 'If-None-Match': etag } });
  expect(again.status).toBe(304);
});

test('creates a user, and answers a second one with the same email with a 409 problem', async () => {
  const auth = { ...(await login()), 'Content-Type': 'application/json' };
  const body = JSON.stringify({ name: 'Jest Person', email: 'jest@example.com' });
  const res = await fetch('/api/v1/users', { method: 'POST', headers: auth, body });
  expect(res.status).toBe(201);
  created = res.headers.get('location');
  const twice = await fetch('/api/v1/users', { method: 'POST', headers: auth, body });
  expect(twice.status).toBe(409);
  expect(twice.headers.get('content-type')).toBe('application/problem+json');
  expect((await twice.json()).status).toBe(409);
});

test('starts every test from the seed data: the user created above is a 404 problem now', async () => {
  const auth = await login();
  const res = await fetch(created, { headers: auth });
  expect(res.status).toBe(404);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const list = await fetch('/api/v1/users?size=1', { headers: auth });
  expect((await list.json()).totalElements).toBe(36);
});

test('fails the request with a TypeError for a networkError override', async () => {
  const auth = await login();
  mock.override('listUsers', { networkError: true }, { nth: 1 });
  await expect(fetch('/api/v1/users', { headers: auth })).rejects.toThrow(TypeError);
  expect((await fetch('/api/v1/users', { headers: auth })).status).toBe(200);
});
