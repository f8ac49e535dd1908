// @vitest-environment node
import { webcrypto } from 'node:crypto';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMockApi } from './create-mock-api.js';
import { MOCK_DEMO_PASSWORDS } from './mock-context.js';

// Issue 30, item 3 (decision 0105): jsdom's `crypto`, which Jest's jsdom environments put in
// place of Node's, has getRandomValues and randomUUID but no `subtle`. The mocks hash, sign and
// digest with Node's own Web Crypto then; where there is none either, they say so, in `ready`
// and in every answer, and never leave an unhandled rejection (which ended Jest's process).
const real = Object.getOwnPropertyDescriptor(globalThis, 'crypto')!;
const withoutSubtle = {
  getRandomValues: (array: Uint8Array) => webcrypto.getRandomValues(array),
  randomUUID: () => webcrypto.randomUUID(),
};
const useCrypto = (value: object) =>
  Object.defineProperty(globalThis, 'crypto', { configurable: true, value });

describe('the mocks where the global crypto has no subtle (jsdom under Jest)', () => {
  const base = 'http://localhost';
  let mock: ReturnType<typeof createMockApi>;
  let server: ReturnType<typeof setupServer>;

  beforeAll(async () => {
    useCrypto(withoutSubtle);
    mock = createMockApi({ passwordIterations: 1000 });
    server = setupServer(...mock.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    await mock.ready;
  });
  afterAll(() => {
    server.close();
    Object.defineProperty(globalThis, 'crypto', real);
  });

  it('seeds, logs in (PBKDF2, HS256, the refresh token’s SHA-256) and answers a GET with the token', async () => {
    expect(globalThis.crypto.subtle).toBeUndefined();
    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin@example.com', password: MOCK_DEMO_PASSWORDS.admin }),
    });
    expect(login.status).toBe(200);
    const { accessToken, refreshToken } = (await login.json()) as {
      accessToken: string;
      refreshToken: string;
    };
    const users = await fetch(`${base}/api/v1/users?size=2`, {
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    expect(users.status).toBe(200);
    expect(((await users.json()) as { totalElements: number }).totalElements).toBe(36);
    const refreshed = await fetch(`${base}/api/v1/auth/refresh`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ refreshToken }),
    });
    expect(refreshed.status).toBe(200);
    const [header, payload] = accessToken.split('.');
    const wrong = await fetch(`${base}/api/v1/users`, {
      headers: { Authorization: `Bearer ${header}.${payload}.${'A'.repeat(43)}` },
    });
    expect(wrong.status).toBe(401);
  });
});

describe('the mocks where no Web Crypto can be found at all', () => {
  it('reject `ready` and answer 500 naming crypto.subtle, with no unhandled rejection', async () => {
    useCrypto(withoutSubtle);
    const builtin = vi.spyOn(process, 'getBuiltinModule').mockReturnValue(undefined as never);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      // A fresh module graph: the one above has found Node's webcrypto already.
      vi.resetModules();
      const fresh = await import('./create-mock-api.js');
      const mock = fresh.createMockApi({ passwordIterations: 1000 });
      await expect(mock.ready).rejects.toThrow(/apikit needs Web Crypto’s crypto\.subtle/);
      const outcome = await mock.answer(new Request('http://localhost/api/v1/users'));
      expect(outcome).not.toBe('network-error');
      const answer = outcome as { status: number; body: string };
      expect(answer.status).toBe(500);
      expect(answer.body).toContain('apikit needs Web Crypto’s crypto.subtle');
      expect(String(logged.mock.calls[0]?.[1])).toContain('crypto.subtle');
    } finally {
      builtin.mockRestore();
      logged.mockRestore();
      Object.defineProperty(globalThis, 'crypto', real);
    }
  });
});
