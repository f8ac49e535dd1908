import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import shop from '../../examples/data-sets/shop.json' with { type: 'json' };
import { createServer } from '../create-server.js';
import { resolveServerConfig, ServerConfigError } from '../../node-runtime/server-config.js';
import { InvalidDataSetError } from '../../core/data-set/data-set-format.js';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('createServer({ data })', () => {
  it('serves a data set of its own and restores it on /admin/reset', async () => {
    const server = await createServer({ port: 0, memory: true, data: shop, rateLimit: 0 });
    try {
      const login = await fetch(`${server.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'sam@shop.example', password: 'sam-shop-password' }),
      });
      expect(login.status).toBe(200);
      const admin = await fetch(`${server.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'olivia@shop.example', password: 'olivia-shop-password' }),
      });
      const auth = {
        Authorization: `Bearer ${((await admin.json()) as { accessToken: string }).accessToken}`,
      };
      const removed = await fetch(`${server.url}/api/v1/users/3`, {
        method: 'DELETE',
        headers: auth,
      });
      expect(removed.status).toBe(204);
      const reset = await fetch(`${server.url}/api/v1/admin/reset`, {
        method: 'POST',
        headers: auth,
      });
      expect(reset.status).toBe(204);
      const back = await fetch(`${server.url}/api/v1/users/3`, { headers: auth });
      expect(((await back.json()) as { name: string }).name).toBe('Nina New');
      expect(server.seeded).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('refuses a bad data set before the store file exists', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'apikit-data-'));
    dirs.push(dir);
    const dbFile = join(dir, 'store', 'db.json');
    const bad = { users: [{ id: 1, name: 'Only', email: 'only@example.com' }] };
    await expect(createServer({ port: 0, dbFile, data: bad })).rejects.toThrow(InvalidDataSetError);
    await expect(createServer({ port: 0, dbFile, data: bad })).rejects.toThrow(
      /createServer\(\{ data \}\) is not a valid data set \(1 problem.*\n {2}\/users: holds no ADMIN/,
    );
    expect(existsSync(join(dir, 'store'))).toBe(false);
  });

  it('lifts the demo-password rule only for a data set of its own (its accounts are its own)', () => {
    const env = { APIKIT_JWT_SECRET: 'a-secret-of-at-least-thirty-two-bytes!!' };
    expect(() => resolveServerConfig({ host: '0.0.0.0' }, env)).toThrow(ServerConfigError);
    expect(() => resolveServerConfig({ host: '0.0.0.0', data: 'empty' }, env)).toThrow(
      ServerConfigError,
    );
    expect(resolveServerConfig({ host: '0.0.0.0', data: shop }, env).host).toBe('0.0.0.0');
  });
});
