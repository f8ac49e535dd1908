import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMockApi } from './create-mock-api.js';
import { writeInteractions } from './interaction-file-writer.js';
import { MOCK_DEMO_PASSWORDS } from './mock-context.js';
import {
  INTERACTION_FORMAT,
  PLACEHOLDERS,
  VARYING,
  type InteractionFile,
} from '../spec/interactions/interaction-file.js';
import { parseInteractionFile } from '../spec/interactions/parse-interaction-file.js';

const base = 'http://record.test';
const work = mkdtempSync(join(tmpdir(), 'apikit-record-'));
const thisFile = relative(process.cwd(), fileURLToPath(import.meta.url)).replace(/\\/g, '/');
const mock = createMockApi({ baseUrl: base, passwordIterations: 1000, record: true });
const server = setupServer(...mock.handlers);

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  await mock.ready;
});
afterEach(() => mock.reset());
afterAll(() => {
  server.close();
  rmSync(work, { recursive: true, force: true });
});

async function login(): Promise<Record<string, string>> {
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin@example.com', password: MOCK_DEMO_PASSWORDS.admin }),
  });
  const { accessToken } = (await res.json()) as { accessToken: string };
  return { Authorization: `Bearer ${accessToken}` };
}

async function createUser(auth: Record<string, string>, email: string) {
  const res = await fetch(`${base}/api/v1/users`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Rec Order', email, age: 40 }),
  });
  expect(res.status).toBe(201);
  return res;
}

describe('createMockApi({ record })', () => {
  it('records each shape once with the operation, the test, no secret', async () => {
    const auth = await login();
    await fetch(`${base}/api/v1/users?size=2`, { headers: auth });
    await fetch(`${base}/api/v1/users?size=3`, { headers: auth }); // the same shape
    const created = await createUser(auth, 'rec.one@example.com');
    await fetch(`${base}${created.headers.get('location')}`, { headers: auth });
    await fetch(`${base}/api/v1/users/999999`, { headers: auth });
    await fetch(`${base}/healthz`); // not an operation: not recorded

    const file = mock.interactions();
    expect(file.format).toBe(INTERACTION_FORMAT);
    expect(file.consumer).toBe('user-order-apikit'); // package.json's name
    expect(file.contract.title).toBeTruthy();
    const ops = file.interactions.map((i) => `${i.operationId} ${i.response.status}`);
    expect(ops.sort()).toEqual([
      'createUser 201',
      'getUser 200',
      'getUser 404',
      'listUsers 200',
      'login 200',
    ]);
    const name =
      'createMockApi({ record }) > records each shape once with the operation, the test, no secret';
    for (const interaction of file.interactions) {
      expect(interaction.key).toMatch(/^\w+ \d{3} [0-9a-f]{6}$/);
      expect(interaction.tests).toEqual([{ file: thisFile, name }]);
    }
    const login200 = file.interactions.find((i) => i.operationId === 'login')!;
    expect(login200.request.body).toEqual({
      username: 'admin@example.com',
      password: PLACEHOLDERS.password,
    });
    expect(login200.response.body).toMatchObject({
      accessToken: PLACEHOLDERS.accessToken,
      refreshToken: PLACEHOLDERS.refreshToken,
    });
    const list = file.interactions.find((i) => i.operationId === 'listUsers')!;
    expect(list.request).toMatchObject({
      method: 'GET',
      path: '/api/v1/users',
      query: [['size', '2']],
      headers: { authorization: `Bearer ${PLACEHOLDERS.accessToken}` },
    });
    expect(list.response.headers).toMatchObject({ etag: VARYING, 'x-request-id': VARYING });
    const createdOne = file.interactions.find((i) => i.operationId === 'createUser')!;
    // Made by the mock's clock during the run: masked, so two runs record the same bytes.
    expect(createdOne.response.body).toMatchObject({
      createdAt: VARYING,
      email: 'rec.one@example.com',
    });
    const notFound = file.interactions.find((i) => i.response.status === 404)!;
    expect(notFound.response.body).toMatchObject({ requestId: VARYING });
    const text = JSON.stringify(file);
    expect(text).not.toContain('eyJ');
    expect(text).not.toContain(MOCK_DEMO_PASSWORDS.admin);
  });

  it('adds a second test to a shape it already holds', async () => {
    const auth = await login();
    await fetch(`${base}/api/v1/users?size=2`, { headers: auth });
    const list = mock.interactions().interactions.find((i) => i.operationId === 'listUsers')!;
    expect(list.tests.map((t) => t.name)).toEqual([
      'createMockApi({ record }) > adds a second test to a shape it already holds',
      'createMockApi({ record }) > records each shape once with the operation, the test, no secret',
    ]);
  });

  it('marks an answer the test canned (an override, a Prefer header) apart from the mocks’ own', async () => {
    const auth = await login();
    mock.override(
      'getUser',
      {
        status: 503,
        body: {
          type: 'urn:apikit:problem:service-unavailable',
          title: 'Service unavailable',
          status: 503,
          detail: 'Down for maintenance.',
          instance: '/api/v1/users/1',
          requestId: 'req-1',
        },
      },
      { times: 1 },
    );
    await fetch(`${base}/api/v1/users/1`, { headers: auth });
    await fetch(`${base}/api/v1/users/1`, { headers: { ...auth, Prefer: 'code=404' } });
    await fetch(`${base}/api/v1/users/999999`, { headers: auth });
    const mine = mock
      .interactions()
      .interactions.filter((i) => i.tests.some((t) => t.name?.includes('marks an answer')))
      .map((i) => [i.operationId, i.response.status, i.canned]);
    expect(mine).toEqual(
      expect.arrayContaining([
        ['getUser', 503, 'override'],
        ['getUser', 404, 'prefer'],
        ['getUser', 404, undefined],
      ]),
    );
  });

  it('records nothing unless asked: no record option, no APIKIT_RECORD', async () => {
    vi.stubEnv('APIKIT_RECORD', '');
    const quiet = createMockApi({ passwordIterations: 1000 });
    await quiet.answer(new Request('http://x.test/api/v1/auth/login', { method: 'POST' }));
    expect(quiet.interactions().interactions).toEqual([]);
    vi.unstubAllEnvs();
  });

  it('writes APIKIT_RECORD’s file, with APIKIT_RECORD_CONSUMER’s name; record: false wins', async () => {
    const path = join(work, 'env', 'recorded.json');
    vi.stubEnv('APIKIT_RECORD', path);
    vi.stubEnv('APIKIT_RECORD_CONSUMER', 'my-frontend');
    const recording = createMockApi({ passwordIterations: 1000 });
    const off = createMockApi({ passwordIterations: 1000, record: false });
    vi.unstubAllEnvs();
    const request = () =>
      new Request('http://x.test/api/v1/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'admin@example.com', password: 'wrong-password' }),
      });
    await off.answer(request());
    expect(off.interactions().interactions).toEqual([]);
    await recording.answer(request());
    const text = readFileSync(path, 'utf8');
    const file = parseInteractionFile(text);
    expect(file.consumer).toBe('my-frontend');
    expect(file.interactions.map((i) => i.key)).toEqual([expect.stringMatching(/^login 401 /)]);
    expect(text).not.toContain('wrong-password');
    expect(text.endsWith('}\n')).toBe(true);
  });
});

function recordingOf(...keys: string[]): InteractionFile {
  return {
    format: INTERACTION_FORMAT,
    consumer: 'app',
    contract: { title: 'API', version: '1' },
    interactions: keys.map((key) => ({
      key,
      operationId: key.split(' ')[0]!,
      request: { method: 'GET', path: '/api/v1/users', query: [], headers: {} },
      response: { status: 200, headers: {} },
      tests: [{ file: `${key.split(' ')[2]}.test.ts` }],
    })),
  };
}

describe('a relative APIKIT_RECORD', () => {
  it('is the working directory’s at the mock’s creation, whatever the test does later', async () => {
    const folder = `reports/record-test-${process.pid}`;
    vi.stubEnv('APIKIT_RECORD', `${folder}/relative.json`);
    const recording = createMockApi({ passwordIterations: 1000 });
    vi.unstubAllEnvs();
    try {
      await recording.answer(new Request('http://x.test/api/v1/auth/login', { method: 'POST' }));
      const file = parseInteractionFile(
        readFileSync(join(process.cwd(), folder, 'relative.json'), 'utf8'),
      );
      expect(file.interactions).toHaveLength(1);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('writeInteractions', () => {
  it('merges into the file, writing nothing when nothing changes', () => {
    const path = join(work, 'merge.json');
    writeInteractions(path, recordingOf('a 200 000001'));
    writeInteractions(path, recordingOf('b 200 000002', 'a 200 000001'));
    const once = readFileSync(path, 'utf8');
    expect(parseInteractionFile(once).interactions.map((i) => i.key)).toEqual([
      'a 200 000001',
      'b 200 000002',
    ]);
    writeInteractions(path, recordingOf('a 200 000001'));
    expect(readFileSync(path, 'utf8')).toBe(once);
  });

  it('takes over a lock left behind by a dead process, and refuses a file that is not a recording', () => {
    const path = join(work, 'stale.json');
    mkdirSync(`${path}.lock`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, old, old);
    writeInteractions(path, recordingOf('a 200 000001'));
    expect(parseInteractionFile(readFileSync(path, 'utf8')).interactions).toHaveLength(1);
    const other = join(work, 'other.json');
    writeFileSync(other, '{"not":"a recording"}');
    expect(() => writeInteractions(other, recordingOf('a 200 000001'))).toThrow(
      /other\.json has no "format"/,
    );
  });

  it('loses nothing when many processes write one file at once', async () => {
    const bundle = join(work, 'writer.mjs');
    await esbuild.build({
      entryPoints: [fileURLToPath(new URL('./interaction-file-writer.ts', import.meta.url))],
      outfile: bundle,
      bundle: true,
      format: 'esm',
      platform: 'node',
      logLevel: 'error',
    });
    const path = join(work, 'many.json');
    const script = `
      const { writeInteractions } = await import(${JSON.stringify(bundle)});
      const [me] = process.argv.slice(1);
      for (let i = 0; i < 15; i++) {
        const key = (op) => ({ key: op, operationId: op.split(' ')[0], tests: [{ file: 'p' + me + '.test.ts', name: 't' + i }],
          request: { method: 'GET', path: '/', query: [], headers: {} }, response: { status: 200, headers: {} } });
        writeInteractions(${JSON.stringify(path)}, { format: ${JSON.stringify(INTERACTION_FORMAT)}, consumer: 'app',
          contract: { title: 'API', version: '1' }, interactions: [key('own' + me + ' 200 ' + String(i).padStart(6, '0')), key('shared 200 000000')] });
      }`;
    const WRITERS = 6;
    await Promise.all(
      Array.from({ length: WRITERS }, (_, me) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, String(me)], {
          stdio: 'inherit',
        });
        return new Promise<void>((resolve, reject) =>
          child.on('exit', (code) =>
            code === 0 ? resolve() : reject(new Error(`writer ${me}: ${code}`)),
          ),
        );
      }),
    );
    const file = parseInteractionFile(readFileSync(path, 'utf8'));
    expect(file.interactions).toHaveLength(WRITERS * 15 + 1);
    expect(file.interactions.find((i) => i.key === 'shared 200 000000')!.tests).toHaveLength(
      WRITERS * 15,
    );
  });
});
