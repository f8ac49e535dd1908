import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type RunningCli } from '../../mocks/server/test-support/start-cli.js';
import { runCli } from '../../test/run-cli.js';

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

describe('apikit mock --engine prism', () => {
  it('starts, answers GET /users with the example, and stops cleanly', async () => {
    const prism = await startCli(['mock', '--engine', 'prism', '--port', '0']);
    started.push(prism);
    expect(prism.stdout()).toContain('Prism');
    const res = await fetch(`${prism.url}/users`, { headers: { Authorization: 'Bearer any' } });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { content: { email: string }[] };
    expect(page.content[0]?.email).toBe('admin@example.com');
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

  it('refuses the demo passwords on a non-loopback host, like serve (exit 2)', async () => {
    const result = await runCli(['mock', '--host', '0.0.0.0', '--port', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/demo passwords/);
  });
});
