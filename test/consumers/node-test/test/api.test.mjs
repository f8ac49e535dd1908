// What a Node service's tests rely on, with node:test and node:assert only: every assertion is
// what the real backend would answer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mock, useMockServer } from '../support/mock-server.mjs';

useMockServer();

const api = 'http://api.test/api/v1';

async function login() {
  const res = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin@example.com', password: 'admin-demo-password' }),
  });
  assert.equal(res.status, 200);
  const { accessToken } = await res.json();
  assert.equal(typeof accessToken, 'string');
  return { Authorization: `Bearer ${accessToken}` };
}

describe('user-order-apikit/mocks under node --test', () => {
  it('logs in and lists users: 200, a page with a Link to the next', async () => {
    const auth = await login();
    const res = await fetch(`${api}/users?size=2`, { headers: auth });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.match(res.headers.get('link') ?? '', /rel="next"/);
    const page = await res.json();
    assert.equal(page.content.length, 2);
    assert.ok(page.totalElements > 2);
  });

  it('answers a GET with an ETag, and the same GET with If-None-Match with 304', async () => {
    const auth = await login();
    const read = await fetch(`${api}/users/1`, { headers: auth });
    assert.equal(read.status, 200);
    const etag = read.headers.get('etag');
    assert.match(etag ?? '', /^"/);
    const again = await fetch(`${api}/users/1`, { headers: { ...auth, 'If-None-Match': etag } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
  });

  it('answers an absent user with a 404 problem+json naming the request', async () => {
    const auth = await login();
    const res = await fetch(`${api}/users/999999`, { headers: auth });
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const problem = await res.json();
    assert.equal(problem.type, 'urn:apikit:problem:not-found');
    assert.equal(problem.status, 404);
    assert.equal(problem.instance, '/api/v1/users/999999');
    assert.equal(problem.requestId, res.headers.get('x-request-id'));
  });

  it('a networkError override rejects fetch with a TypeError, once', async () => {
    const auth = await login();
    mock.override('listUsers', { networkError: true }, { nth: 1 });
    await assert.rejects(fetch(`${api}/users`, { headers: auth }), TypeError);
    assert.equal((await fetch(`${api}/users`, { headers: auth })).status, 200);
  });

  it('creates a user: 201 with Location', async () => {
    const auth = await login();
    const res = await fetch(`${api}/users`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Grace Hopper', email: 'grace@example.com', age: 85 }),
    });
    assert.equal(res.status, 201);
    assert.match(res.headers.get('location') ?? '', /^\/api\/v1\/users\/\d+$/);
  });

  it('mock.reset() after the previous test: the user it created is gone', async () => {
    const auth = await login();
    const res = await fetch(`${api}/users?size=100`, { headers: auth });
    assert.equal(res.status, 200);
    const { content } = await res.json();
    assert.equal(
      content.some((user) => user.email === 'grace@example.com'),
      false,
    );
  });

  it('a request outside the API fails: unhandledRequests("error") reached msw', async () => {
    const error = await fetch('http://api.test/status').then(
      () => undefined,
      (e) => e,
    );
    // msw's refusal ("Failed to fetch", or msw 2's own "[MSW] Cannot bypass..."), not the
    // network's: undici's "fetch failed", api.test resolving nowhere. A request for a common
    // static asset (/logo.png, say) would pass without a word.
    assert.match(
      `${error?.name}: ${error?.message}`,
      /^TypeError: Failed to fetch$|Cannot bypass a request when using the "error" strategy/,
    );
  });
});
