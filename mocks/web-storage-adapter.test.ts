import { describe, expect, it } from 'vitest';
import { createMockContext } from './mock-context.js';

/** A stand-in for localStorage: what survives a "reload" is what was set. */
function fakeStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    items,
  };
}

describe('mocks persisted to Web Storage', () => {
  it('keeps a created user across a restart (a page reload), and seeds only once', async () => {
    const storage = fakeStorage();
    const first = await createMockContext({ persist: { storage }, passwordIterations: 1000 });
    const res = await first.api.handle({
      method: 'POST',
      path: '/api/v1/auth/login',
      query: '',
      headers: new Headers({ 'Content-Type': 'application/json' }),
      body: new TextEncoder().encode(
        JSON.stringify({ username: 'admin@example.com', password: 'admin-demo-password' }),
      ),
    });
    expect(res.status).toBe(200);
    await first.store.write((data) => {
      data.counters.users += 1;
      data.users[String(data.counters.users)] = {
        ...data.users['2']!,
        id: data.counters.users,
        email: 'kept@example.com',
      };
    });
    const second = await createMockContext({ persist: { storage }, passwordIterations: 1000 });
    const emails = Object.values(second.store.data.users).map((u) => u.email);
    expect(emails).toContain('kept@example.com');
    expect(storage.items.size).toBe(1);
  });
});
