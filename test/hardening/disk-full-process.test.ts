import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../core/domain/dataset.js';
import { login } from '../durability/api-calls.js';
import { startCliServer, type CliServer } from '../durability/cli-server.js';
import { expectProblem } from '../support/hardening/expect-problem.js';
import { httpCall } from '../support/hardening/http-call.js';

/*
 * A real refusal by the kernel, without privileges: `prlimit` lowers the file-size limit
 * (RLIMIT_FSIZE) of a running `apikit serve` to 0 bytes, so its write(2) of the next temp
 * file fails with EFBIG while reads go on working (as on a full disk), then lifts it again.
 * Linux with util-linux `prlimit` (Node ignores SIGXFSZ, so the write fails instead of killing
 * the process). Needs `npm run build`.
 */

const run = promisify(execFile);
const env = {
  APIKIT_ADMIN_PASSWORD: 'fsize-admin-password',
  APIKIT_USER_PASSWORD: 'fsize-user-password',
  APIKIT_JWT_SECRET: 'fsize-secret-fsize-secret-fsize-secret-0123456789',
};

let dir: string;
let dbFile: string;
let server: CliServer;
let token: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'apikit-fsize-'));
  dbFile = join(dir, 'db.json');
  server = await startCliServer({ dbFile, env, logs: true });
  token = await login(server.api, 'admin@example.com', env.APIKIT_ADMIN_PASSWORD);
});

afterAll(async () => {
  await server?.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/** Sets the soft file-size limit of the server process (bytes, or 'unlimited'). */
async function limitFileSize(soft: number | 'unlimited'): Promise<void> {
  await run('prlimit', ['--pid', String(server.child.pid), `--fsize=${soft}:unlimited`]);
}

const call = (method: string, path: string, body?: object) =>
  httpCall({
    method,
    url: `${server.api}${path}`,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

describe('apikit serve on a file system that refuses writes (RLIMIT_FSIZE, EFBIG)', () => {
  it('answers 503 with Retry-After, serves what is on disk, and recovers when writes work', async () => {
    const made = await call('POST', '/users', { name: 'Before', email: 'before@example.com' });
    expect(made.status).toBe(201);
    const id = made.json<{ id: number }>().id;
    // Another user to delete: a PATCH racing a DELETE of the same user could see the doomed
    // delete while the failing flush is under way (decision 0009's known window).
    const other = await call('POST', '/users', { name: 'Other', email: 'other@example.com' });
    const otherId = other.json<{ id: number }>().id;
    const before = await readFile(dbFile, 'utf8');

    await limitFileSize(0);
    try {
      const refused = await Promise.all([
        call('POST', '/users', { name: 'Refused', email: 'refused@example.com' }),
        call('PATCH', `/users/${id}`, { name: 'Refused' }),
        call('DELETE', `/users/${otherId}`),
      ]);
      for (const res of refused) {
        const problem = expectProblem(res, 503, 'service-unavailable');
        expect(problem.detail).not.toMatch(/EFBIG|\//);
      }
      const read = await call('GET', `/users/${id}`);
      expect(read.status).toBe(200);
      expect(read.json<{ name: string }>().name).toBe('Before');
      expect((await call('GET', `/users/${otherId}`)).status).toBe(200);
      // Still refused on a second try: the limit, not a one-off glitch, is what fails.
      expectProblem(await call('PATCH', `/users/${id}`, { name: 'Refused' }), 503);
    } finally {
      await limitFileSize('unlimited');
    }
    expect(await readFile(dbFile, 'utf8')).toBe(before);
    expect(await readdir(dir)).toEqual(['db.json']);

    // No restart: the next writes succeed and the file holds them.
    const again = await call('POST', '/users', { name: 'Refused', email: 'refused@example.com' });
    expect(again.status).toBe(201);
    expect((await call('PATCH', `/users/${id}`, { name: 'After' })).status).toBe(200);
    const onDisk = JSON.parse(await readFile(dbFile, 'utf8')) as Dataset;
    expect(onDisk.users[String(again.json<{ id: number }>().id)]?.email).toBe(
      'refused@example.com',
    );
    expect(onDisk.users[String(id)]?.name).toBe('After');

    // The log saw the 503s and names no path or stack; the errno only in the one warn line
    // whose job is to say why the store refused (decision 0089, amended), never elsewhere.
    const lines = server.stderr().trim().split('\n').filter(Boolean);
    const parsed = lines.map((line) => JSON.parse(line) as { status?: number; msg?: string });
    expect(parsed.filter((line) => line.status === 503)).toHaveLength(4);
    for (const line of lines) expect(line).not.toMatch(/\/tmp\/|node_modules|\bat \S+ \(/);
    const why = parsed.filter((line) => line.msg === 'store unavailable: answering 503');
    expect(why).toHaveLength(1);
    for (const line of lines.filter((_l, i) => !why.includes(parsed[i]!)))
      expect(line).not.toMatch(/EFBIG/);
    // The first write that works again ends the outage: said once (issue 31).
    const back = parsed.filter((line) => line.msg === 'store available again');
    expect(back).toEqual([
      expect.objectContaining({
        level: 'warn',
        requests: 4,
        unavailableSeconds: expect.any(Number),
      }),
    ]);

    await server.kill('SIGTERM');
    expect(server.child.exitCode).toBe(0);
  });
});
