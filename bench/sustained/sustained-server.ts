/** The server under sustained load: `apikit serve` on a JSON file, its logins, RSS and data. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PASSWORDS, SECRET } from './sustained-rules.js';

export const repoRoot = findRepoRoot(dirname(fileURLToPath(import.meta.url)));

export async function startServer(dbFile: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      'bin/apikit.js',
      'serve',
      '--db',
      dbFile,
      '--port',
      '0',
      '--rate-limit',
      '0',
      '--login-rate-limit',
      '0',
      '--log-format',
      'off',
    ],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        APIKIT_ADMIN_PASSWORD: PASSWORDS.admin,
        APIKIT_USER_PASSWORD: PASSWORDS.user,
        APIKIT_JWT_SECRET: SECRET,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no address within 30 s: ${out}`)), 30_000);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`apikit serve exited ${code}: ${out}`)));
  });
  child.stdout?.resume();
  return { url, child };
}

export async function loginToken(api: string): Promise<string> {
  const res = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin@example.com', password: PASSWORDS.admin }),
  });
  if (res.status !== 200) throw new Error(`login: ${res.status}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

export async function createUser(api: string, token: string, email: string): Promise<number> {
  const res = await fetch(`${api}/users`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Pool', email }),
  });
  if (res.status !== 201) throw new Error(`create ${email}: ${res.status}`);
  return ((await res.json()) as { id: number }).id;
}

/** VmRSS of a running process, in bytes (Linux /proc). */
export function rssOf(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) * 1024;
}

export function readDataset(file: string): { users: Record<string, { email: string }> } {
  return JSON.parse(readFileSync(file, 'utf8')) as { users: Record<string, { email: string }> };
}

/** The directory holding package.json: the same from bench/sustained/ and dist/bench/sustained/. */
export function findRepoRoot(from: string): string {
  for (let dir = from, up = 0; up < 5; dir = dirname(dir), up += 1) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'bin', 'apikit.js')))
      return dir;
  }
  throw new Error(`no repository root above ${from}`);
}
