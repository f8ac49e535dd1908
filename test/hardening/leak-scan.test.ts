import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_JWT_SECRET,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../start-test-server.js';
import type { Dataset } from '../../core/domain/dataset.js';
import type { PasswordHasher } from '../../core/domain/ports.js';
import { DurableJsonFile } from '../../reference-server/store/durable-json-file.js';
import { FailingAdapter } from '../support/store/failing-adapter.js';
import { httpCall, type HttpCall } from '../support/hardening/http-call.js';
import { rawExchange } from '../support/hardening/raw-exchange.js';

/*
 * A broad run over the error paths (malformed and huge bodies, bad tokens, unknown paths and
 * methods, malformed HTTP, rate limits, disk faults, an injected bug that throws an error
 * naming a file), collecting every answer (status, headers, body) and every log line, then
 * scanning all of it for what must never leave the server: password hashes, the signing
 * secret, the passwords, stack frames, internal paths.
 */

let dir: string;
let dbFile: string;
let disk: FailingAdapter<Dataset>;
let server: TestServer;
const answers: string[] = [];
const logLines: string[] = [];
const statuses = new Set<number>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'apikit-leak-scan-'));
  dbFile = join(dir, 'db.json');
  disk = new FailingAdapter<Dataset>(new DurableJsonFile(dbFile));
  server = await startTestServer({
    adapter: disk,
    loginRateLimit: 14, // 2 by startTestServer, 10 by the run, then guesses until 429
    log: (line) => logLines.push(JSON.stringify(line)),
  });
});

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

function record(call: HttpCall, answer: { status: number; headers: Headers; text: string }) {
  statuses.add(answer.status);
  answers.push(
    `${call.method} ${call.url} -> ${answer.status}\n${[...answer.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${answer.text}`,
  );
}

const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  httpCall(
    { method, url: `${server.url}${path}`, headers, ...(body === undefined ? {} : { body }) },
    record,
  );
const admin = { Authorization: '' };
const json = { 'Content-Type': 'application/json' };
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An error as a bug deep in a dependency would throw it: naming files, with a stack. */
function internalError(): Error {
  const error = new Error(
    `EACCES: permission denied, open '${dbFile}' (from ${process.cwd()}/node_modules/some-lib/index.js)`,
  );
  error.stack = `${error.message}\n    at open (node:internal/fs/promises:639:25)\n    at Object.<anonymous> (${process.cwd()}/reference-server/x.js:1:1)`;
  return error;
}

async function broadRun(): Promise<void> {
  admin.Authorization = `Bearer ${server.adminToken}`;
  const user = { Authorization: `Bearer ${server.userToken}` };
  const login = (body: string, headers: Record<string, string> = json) =>
    send('POST', '/api/v1/auth/login', headers, body);
  const now = Math.floor(Date.now() / 1000);

  // Open routes and the docs page.
  for (const path of ['/healthz', '/openapi.json', '/openapi.yaml', '/docs', '/docs/init.js'])
    await send('GET', path);
  // Logins: right, wrong, unknown, malformed, oversized, mistyped, form-encoded by mistake.
  await login(JSON.stringify({ username: 'admin@example.com', password: TEST_ADMIN_PASSWORD }));
  await login(JSON.stringify({ username: 'user@example.com', password: `${TEST_USER_PASSWORD}x` }));
  await login(JSON.stringify({ username: 'nobody@example.com', password: TEST_USER_PASSWORD }));
  await login(`{"username":"user@example.com","password":"${TEST_USER_PASSWORD}"`);
  await login(`username=user@example.com&password=${TEST_USER_PASSWORD}`);
  await login(`{"username":"user@example.com","password":"${TEST_USER_PASSWORD}"}}`);
  await login(JSON.stringify({ username: 'user@example.com', password: 12345 }));
  await login(JSON.stringify({ username: 'user@example.com' }));
  await login(`password=${TEST_USER_PASSWORD}`, {
    'Content-Type': 'application/x-www-form-urlencoded',
  });
  // Reads of the accounts that hold hashes, every way.
  for (const path of [
    '/users/1',
    '/users/2',
    '/users?size=100',
    '/users?size=100&sort=email',
    '/users/1/roles',
    '/users/2/orders',
  ]) {
    await send('GET', `/api/v1${path}`, admin);
    await send('HEAD', `/api/v1${path}`, admin);
  }
  await send('GET', '/api/v1/users/2', user);
  // Bodies: malformed, huge, prototype pollution, wrong media type, an idempotent replay.
  const create = (body: string, headers: Record<string, string> = { ...admin, ...json }) =>
    send('POST', '/api/v1/users', headers, body);
  await create('{"name":');
  await create(JSON.stringify({ name: 'x'.repeat(200_000), email: 'huge@example.com' }));
  await create('{"__proto__":{"isAdmin":true},"name":"Proto","email":"proto@example.com"}');
  await create('{"constructor":{"prototype":{"isAdmin":true}},"name":"C","email":"c@example.com"}');
  await create('name=x', { ...admin, 'Content-Type': 'text/plain' });
  for (let i = 0; i < 2; i += 1) {
    await create(JSON.stringify({ name: 'Idem', email: 'idem@example.com' }), {
      ...admin,
      ...json,
      'Idempotency-Key': 'leak-1',
    });
  }
  await send(
    'PATCH',
    '/api/v1/users/2',
    { ...admin, ...json },
    JSON.stringify({ email: 'admin@example.com' }),
  );
  // Tokens: garbage, none, expired, another secret, a deleted subject.
  for (const token of [
    'garbage',
    `${b64({ alg: 'none' })}.${b64({ sub: '1', role: 'ADMIN', exp: now + 900 })}.`,
    jwt.sign(
      { sub: '1', name: 'A', role: 'ADMIN', iat: now - 999, exp: now - 60 },
      TEST_JWT_SECRET,
    ),
    jwt.sign({ sub: '1', name: 'A', role: 'ADMIN' }, 'another-secret-another-secret-0123456789', {
      expiresIn: 900,
    }),
    jwt.sign({ sub: '987654', name: 'A', role: 'ADMIN' }, TEST_JWT_SECRET, { expiresIn: 900 }),
  ]) {
    await send('GET', '/api/v1/users/1', { Authorization: `Bearer ${token}` });
  }
  await send('POST', '/api/v1/auth/refresh', json, JSON.stringify({ refreshToken: 'made-up' }));
  await send('POST', '/api/v1/auth/logout', json, JSON.stringify({ refreshToken: 'made-up' }));
  await send('OPTIONS', '/api/v1/users', {
    Origin: 'https://app.example.com',
    'Access-Control-Request-Method': 'POST',
  });
  await send('POST', '/api/v1/admin/reset', user);
  // Unknown paths and methods, traversal attempts, bad parameters.
  for (const path of [
    '/api/v1/users/987654',
    '/api/v1/users/abc',
    '/api/v1/users/1?page=-1&size=1e9',
    '/api/v1/nothing',
    '/nothing',
    '/docs/assets/../../package.json',
    '/docs/assets/%2e%2e/%2e%2e/package.json',
    '/docs/assets/..%2f..%2f..%2fetc%2fpasswd',
    '/openapi.json/../../package.json',
  ]) {
    await send('GET', path, admin);
  }
  await send('DELETE', '/api/v1/roles', admin);
  await send('PROPFIND', '/api/v1/users', admin);
  await send('GET', '/api/v1/users/1', { ...admin, Accept: 'text/html' });
  for (const bytes of [
    'BREW /api/v1/users HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /api/v1/users HTTP/9.x\r\nHost: x\r\n\r\n',
    `GET /api/v1/users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.adminToken}\r\nBad Header\r\n\r\n`,
  ]) {
    const raw = await rawExchange(server.url, bytes);
    statuses.add(raw.status);
    answers.push(raw.text);
  }
  // The disk fails: writes 503; then reads too, while the reload fails.
  disk.failWrites(
    Object.assign(new Error(`ENOSPC: no space left on device, write '${dbFile}'`), {
      code: 'ENOSPC',
    }),
  );
  await create(JSON.stringify({ name: 'Full', email: 'full@example.com' }));
  disk.failReads(Object.assign(new Error(`EIO: i/o error, open '${dbFile}'`), { code: 'EIO' }));
  await create(JSON.stringify({ name: 'Full', email: 'full@example.com' }));
  await send('GET', '/api/v1/users/1', admin);
  disk.healWrites();
  disk.healReads();
  // Reads trigger the reload: bounded retries until the store serves again.
  for (let i = 0; i < 20 && (await send('GET', '/api/v1/users/1', admin)).status !== 200; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // A bug: the password check throws an error naming files, with a stack.
  const passwords = server.ctx.passwords;
  (server.ctx as { passwords: PasswordHasher }).passwords = {
    ...passwords,
    verify: () => Promise.reject(internalError()),
  };
  try {
    await login(JSON.stringify({ username: 'admin@example.com', password: TEST_ADMIN_PASSWORD }));
  } finally {
    (server.ctx as { passwords: PasswordHasher }).passwords = passwords;
  }
  // Guessing until the login limiter stops it.
  for (let i = 0; i < 10 && !statuses.has(429); i += 1) {
    await login(JSON.stringify({ username: 'admin@example.com', password: `guess-${i}` }));
  }
}

/** Everything that must never appear, with a name for the failure message. */
function forbidden(): [string, string][] {
  const data = server.store!.data;
  const hashes = Object.values(data.users)
    .map((u) => u.passwordHash)
    .filter((hash): hash is string => hash !== null);
  expect(hashes.length).toBeGreaterThanOrEqual(2);
  return [
    ['the signing secret', TEST_JWT_SECRET],
    ['the admin password', TEST_ADMIN_PASSWORD],
    ['the user password', TEST_USER_PASSWORD],
    ['the scrypt hash prefix', 'scrypt$'],
    ...hashes.flatMap((hash): [string, string][] => {
      const [, , , , salt, key] = hash.split('$');
      return [
        ['a password hash salt', salt as string],
        ['a password hash', key as string],
      ];
    }),
    ...Object.keys(data.refreshTokens).map((hash): [string, string] => [
      'a stored refresh token hash',
      hash,
    ]),
    ['the db file path', dbFile],
    ['the temp dir', dir],
    ['the working directory', process.cwd()],
    ['node_modules', 'node_modules'],
  ];
}

/** A V8 stack frame: "at fn (/path/file.js:1:2)", "at /path/file.js:1:2", "at node:internal...". */
const STACK_FRAME = /\bat (?:async )?(?:\S+ \()?(?:\/|file:|node:)[^\s)]*:\d+:\d+/;

describe('nothing secret or internal leaves the server', () => {
  beforeAll(broadRun, 60_000);

  it('the run reached every kind of answer', () => {
    for (const status of [
      200, 201, 204, 400, 401, 403, 404, 405, 406, 409, 413, 415, 429, 500, 501, 503,
    ]) {
      expect(statuses.has(status), `no ${status} in the run`).toBe(true);
    }
    expect(logLines.some((line) => line.includes('"unexpected error"'))).toBe(true);
    console.info(`scanned ${answers.length} answers and ${logLines.length} log lines`);
  });

  it('no answer (status line, headers, body) holds a secret, hash, stack frame or path', () => {
    for (const [what, value] of forbidden()) {
      const hit = answers.find((answer) => answer.includes(value));
      expect(hit, `${what} in an answer`).toBeUndefined();
    }
    expect(answers.find((answer) => STACK_FRAME.test(answer))).toBeUndefined();
  });

  it('no log line holds a secret, hash, stack frame or path', () => {
    for (const [what, value] of forbidden()) {
      const hit = logLines.find((line) => line.includes(value));
      expect(hit, `${what} in a log line`).toBeUndefined();
    }
    expect(logLines.find((line) => STACK_FRAME.test(line))).toBeUndefined();
  });
});
