// Secrets follow configuration (decision 0103): a store seeded with the demo passwords on
// loopback, then served from outside with the passwords set, lets in the configured ones only;
// a store that still opens with a demo password is refused off loopback, whatever the
// environment says. The servers bind 0.0.0.0 but are only ever called on 127.0.0.1.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type RunningServer } from './create-server.js';
import { ServerConfigError } from '../node-runtime/server-config.js';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
const DEMO = { adminPassword: 'admin-demo-password', userPassword: 'user-demo-password' };

async function login(server: RunningServer, username: string, password: string) {
  const port = new URL(server.url).port;
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return { status: res.status, body: (await res.json()) as { refreshToken?: string } };
}

async function refresh(server: RunningServer, refreshToken: string) {
  const port = new URL(server.url).port;
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/auth/refresh`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refreshToken }),
  });
  return res.status;
}

describe('the demo accounts’ passwords follow the configuration', () => {
  it('seeded on loopback with the demo passwords, then exposed with them set: only the configured ones log in', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'apikit-passwords-'));
    dirs.push(dir);
    const dbFile = join(dir, 'db.json');
    const jwtSecret = 'a-secret-of-at-least-thirty-two-bytes!!';
    const local = await createServer({ port: 0, dbFile, jwtSecret, ...DEMO });
    expect(local.seeded).toBe(true);
    const before = await login(local, 'admin@example.com', 'admin-demo-password');
    expect(before.status).toBe(200);
    await local.close();

    const exposed = await createServer({
      port: 0,
      host: '0.0.0.0',
      dbFile,
      jwtSecret,
      adminPassword: 'rotated-admin-password',
      userPassword: 'rotated-user-password',
    });
    try {
      expect(exposed.seeded).toBe(false);
      expect(exposed.passwordsRotated.sort()).toEqual(['admin@example.com', 'user@example.com']);
      expect((await login(exposed, 'admin@example.com', 'admin-demo-password')).status).toBe(401);
      expect((await login(exposed, 'user@example.com', 'user-demo-password')).status).toBe(401);
      expect((await login(exposed, 'admin@example.com', 'rotated-admin-password')).status).toBe(
        200,
      );
      expect((await login(exposed, 'user@example.com', 'rotated-user-password')).status).toBe(200);
      // A refresh token issued under the old password is spent with it.
      expect(await refresh(exposed, before.body.refreshToken!)).toBe(401);
    } finally {
      await exposed.close();
    }

    // The next start with the same values changes nothing.
    const again = await createServer({
      port: 0,
      dbFile,
      jwtSecret,
      adminPassword: 'rotated-admin-password',
      userPassword: 'rotated-user-password',
    });
    expect(again.passwordsRotated).toEqual([]);
    await again.close();
  });

  it('refuses to listen off loopback while the store opens with a demo password', async () => {
    // A data set of its own that gives the demo admin its documented password: the
    // environment's check cannot see it, the store's does.
    const data = {
      users: [
        {
          id: 1,
          name: 'Ada Admin',
          email: 'admin@example.com',
          roles: ['ADMIN'],
          password: 'admin-demo-password',
        },
      ],
    };
    const attempt = createServer({ port: 0, host: '0.0.0.0', memory: true, data });
    await expect(attempt).rejects.toThrow(ServerConfigError);
    await expect(attempt).rejects.toThrow(/admin@example\.com .*demo password/);
    // The same data on loopback is a demo, and serves.
    const local = await createServer({ port: 0, memory: true, data });
    expect((await login(local, 'admin@example.com', 'admin-demo-password')).status).toBe(200);
    await local.close();
  });
});
