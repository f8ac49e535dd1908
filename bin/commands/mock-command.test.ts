import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type RunningCli } from '../../test/support/mock-server/start-cli.js';
import { packageRoot } from '../../spec/spec-path.js';
import { runCli } from '../../test/run-cli.js';
import { withoutPackages } from '../../test/support/cli/without-packages.js';

// Runs the built CLI: `npm run build` first (npm test does).
const started: RunningCli[] = [];
afterAll(async () => {
  await Promise.all(started.map((cli) => cli.stop()));
}, 30_000);

describe('apikit mock (msw engine)', () => {
  let cli: RunningCli;
  beforeAll(async () => {
    cli = await startCli(['mock', '--port', '0', '--latency', '5-20']);
    started.push(cli);
  }, 60_000);

  it('serves /docs and sends a browser from / to it', async () => {
    expect(cli.stdout()).toContain(`${cli.url}/docs`);
    const docs = await fetch(`${cli.url}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('/docs/init.js');
    const root = await fetch(`${cli.url}/`, {
      headers: { Accept: 'text/html' },
      redirect: 'manual',
    });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/docs');
  });

  it('prints the URL, how to log in and the Prefer hint', () => {
    expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(cli.stdout()).toContain(`${cli.url}/api/v1/auth/login`);
    expect(cli.stdout()).toContain('admin-demo-password');
    expect(cli.stdout()).toContain('Prefer: code=404');
  });

  it('answers /healthz and a login with the demo password, then a Prefer-canned 404', async () => {
    const health = await fetch(`${cli.url}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const login = await fetch(`${cli.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'user@example.com', password: 'user-demo-password' }),
    });
    expect(login.status).toBe(200);
    const { accessToken } = (await login.json()) as { accessToken: string };
    const canned = await fetch(`${cli.url}/api/v1/users/1`, {
      headers: { Authorization: `Bearer ${accessToken}`, Prefer: 'code=404' },
    });
    expect(canned.status).toBe(404);
  });

  it('stops cleanly on SIGTERM', async () => {
    const exit = await cli.stop();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(cli.stderr()).toContain('SIGTERM');
  }, 20_000);
});

describe('apikit mock --data FILE', () => {
  it('serves the data set of the file, names it and its first login, and resets to it', async () => {
    const shop = join(packageRoot, 'examples', 'data-sets', 'shop.json');
    const cli = await startCli(['mock', '--port', '0', '--data', shop]);
    started.push(cli);
    expect(cli.stdout()).toContain(`(data from ${shop}; gone on stop)`);
    expect(cli.stdout()).toContain('"username":"olivia@shop.example"');
    const login = await fetch(`${cli.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'olivia@shop.example', password: 'olivia-shop-password' }),
    });
    expect(login.status).toBe(200);
    const { accessToken } = (await login.json()) as { accessToken: string };
    const auth = { Authorization: `Bearer ${accessToken}` };
    const removed = await fetch(`${cli.url}/api/v1/users/4`, { method: 'DELETE', headers: auth });
    expect(removed.status).toBe(204);
    const reset = await fetch(`${cli.url}/api/v1/admin/reset`, { method: 'POST', headers: auth });
    expect(reset.status).toBeLessThan(300);
    const users = await fetch(`${cli.url}/api/v1/users`, { headers: auth });
    const page = (await users.json()) as { totalElements: number; content: { email: string }[] };
    expect(page.totalElements).toBe(4);
    expect(page.content.map((u) => u.email)).toContain('olivia@shop.example');
    expect(await cli.stop()).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('refuses a file that breaks the contract with exit 2, listing every problem', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'apikit-mock-data-'));
    try {
      const bad = join(dir, 'bad.json');
      await writeFile(
        bad,
        JSON.stringify({ users: [{ id: 1, name: '', email: 'nope', age: 12, roles: ['USER'] }] }),
      );
      const result = await runCli(['mock', '--port', '0', '--data', bad]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`apikit: ${bad} is not a valid data set`);
      for (const field of ['name', 'email', 'age']) expect(result.stderr).toContain(field);
      expect(result.stdout).not.toContain('listening');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('apikit mock --engine prism', () => {
  it('serves under /api/v1 like the msw engine, with coherent errors, and stops cleanly', async () => {
    const prism = await startCli(['mock', '--engine', 'prism', '--port', '0']);
    started.push(prism);
    expect(prism.stdout()).toContain('Prism');
    expect(prism.stdout()).toContain(`${prism.url}/api/v1`);
    const res = await fetch(`${prism.url}/api/v1/users`, {
      headers: { Authorization: 'Bearer any' },
    });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { content: { email: string }[] };
    expect(page.content[0]?.email).toBe('admin@example.com');
    // An invalid POST: the status and the body agree (they said 422 and 404 before).
    const invalid = await fetch(`${prism.url}/api/v1/users`, {
      method: 'POST',
      headers: { Authorization: 'Bearer any', 'Content-Type': 'application/json' },
      body: '{"name":""}',
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      status: 400,
      type: 'urn:apikit:problem:validation-failed',
    });
    expect((await fetch(`${prism.url}/docs`)).status).toBe(200);
    expect(await prism.stop()).toEqual({ code: 0, signal: null });
  }, 90_000);
});

describe('apikit mock refuses what it cannot do', () => {
  it('rejects options of the other engine and a bad latency (exit 2)', async () => {
    const dynamic = await runCli(['mock', '--dynamic', '--port', '0']);
    expect(dynamic.code).toBe(2);
    expect(dynamic.stderr).toContain('--engine prism');
    const latency = await runCli(['mock', '--latency', 'soon', '--port', '0']);
    expect(latency.code).toBe(2);
    expect(latency.stderr).toContain('--latency');
  });

  it('--engine prism without Prism installed names it and its install line (exit 2)', async () => {
    const result = await runCli(['mock', '--engine', 'prism', '--port', '0'], {
      env: withoutPackages(['@stoplight/prism-cli']),
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      'apikit: apikit mock --engine prism needs @stoplight/prism-cli, which is not installed: npm i -D @stoplight/prism-cli@^5.14.0',
    );
  });

  it('refuses the demo passwords on a non-loopback host, like serve (exit 2)', async () => {
    const result = await runCli(['mock', '--host', '0.0.0.0', '--port', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/demo passwords/);
  });
});
