import { readdir, readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFileTestServer, type FileTestServer } from '../start-file-test-server.js';
import type { TestServer } from '../start-test-server.js';
import type { Dataset } from '../../core/domain/dataset.js';
import type { FailingAdapter } from '../support/store/failing-adapter.js';
import { expectProblem } from '../support/hardening/expect-problem.js';
import { httpCall, type HttpAnswer } from '../support/hardening/http-call.js';

/*
 * The disk refuses writes under the real file store (DurableJsonFile in a temp dir, wrapped in
 * FailingAdapter to inject the errno a full or read-only file system gives): every write is
 * 503 problem+json with Retry-After, what clients read right after is what the file holds, the
 * file is untouched, and the server recovers by itself once the disk takes writes again.
 * (disk-full-process.test.ts makes the kernel itself refuse the writes of a CLI server.)
 */

let dir: string;
let dbFile: string;
let disk: FailingAdapter<Dataset>;
let server: TestServer;

let fixture: FileTestServer | undefined;

beforeAll(async () => {
  fixture = await startFileTestServer('apikit-disk-faults-');
  ({ dir, dbFile, disk, server } = fixture);
});

afterAll(() => fixture?.close());

function fsError(code: string, message: string): Error {
  // The message names a path, as the real error does: it must not reach a client.
  return Object.assign(new Error(`${code}: ${message}, open '${dbFile}.tmp'`), { code });
}

const call = (method: string, path: string, body?: object) =>
  httpCall({
    method,
    url: `${server.api}${path}`,
    headers: { Authorization: `Bearer ${server.adminToken}`, 'Content-Type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

const readDisk = async () => JSON.parse(await readFile(dbFile, 'utf8')) as Dataset;

async function newUser(tag: string): Promise<{ id: number; name: string }> {
  const res = await call('POST', '/users', { name: `Before ${tag}`, email: `${tag}@example.com` });
  expect(res.status).toBe(201);
  return res.json();
}

/**
 * Writes a client could try while the disk is down: each must fail and leave no trace. None
 * depends on another's outcome (a PUT of roles on the user being deleted could see the doomed
 * delete during the failing flush itself: decision 0009's known window).
 */
function refusedWrites(tag: string, patched: number, doomed: number) {
  return [
    call('POST', '/users', { name: 'Refused', email: `refused-${tag}@example.com` }),
    call('PATCH', `/users/${patched}`, { name: `Refused ${tag}` }),
    call('PUT', `/users/${patched}`, { name: 'Replaced', email: `replaced-${tag}@example.com` }),
    call('DELETE', `/users/${doomed}`),
    call('POST', `/users/${patched}/orders`, {
      product: 'Refused order',
      categoryId: 1,
      items: [{ product: 'Refused item', quantity: 1 }],
    }),
    call('PUT', `/users/${patched}/roles/2`),
  ];
}

function expectUnavailable(res: HttpAnswer): void {
  const problem = expectProblem(res, 503, 'service-unavailable');
  expect(problem.detail).not.toMatch(/ENOSPC|EROFS|EIO|\//);
  expect(res.text).not.toContain(dir);
}

describe('the disk refuses writes', () => {
  it.each([
    ['ENOSPC (disk full)', () => fsError('ENOSPC', 'no space left on device')],
    ['EROFS (read-only file system)', () => fsError('EROFS', 'read-only file system')],
    ['EIO (I/O error)', () => fsError('EIO', 'i/o error')],
  ])('%s: 503 with Retry-After, reads show the disk, and it recovers', async (_, error) => {
    const tag = `${Date.now()}`;
    const patched = await newUser(`patched-${tag}`);
    const doomed = await newUser(`doomed-${tag}`);
    const before = await readFile(dbFile, 'utf8');

    disk.failWrites(error());
    let answers: HttpAnswer[];
    try {
      answers = await Promise.all(refusedWrites(tag, patched.id, doomed.id));
      // Right after the 503s, while the disk still refuses: reads show the file's state.
      const read = await call('GET', `/users/${patched.id}`);
      expect(read.status).toBe(200);
      expect(read.json<{ name: string }>().name).toBe(patched.name);
      expect((await call('GET', `/users/${doomed.id}`)).status).toBe(200);
      expect((await call('GET', `/users/${patched.id}/orders`)).json()).toEqual([]);
      const roles = await call('GET', `/users/${patched.id}/roles`);
      expect(roles.json<{ name: string }[]>().map((role) => role.name)).toEqual(['USER']);
      const listed = await call('GET', '/users?size=1');
      expect(listed.json<{ totalElements: number }>().totalElements).toBe(
        Object.keys((await readDisk()).users).length,
      );
    } finally {
      disk.healWrites();
    }
    for (const res of answers) expectUnavailable(res);
    // The file is byte for byte what it was, and no temp file is left behind.
    expect(await readFile(dbFile, 'utf8')).toBe(before);
    expect(await readdir(dir)).toEqual(['db.json']);

    // Healed: the same writes succeed without a restart, and the file holds them.
    const made = await call('POST', '/users', {
      name: 'Refused',
      email: `refused-${tag}@example.com`,
    });
    expect(made.status).toBe(201);
    const patchedNow = await call('PATCH', `/users/${patched.id}`, { name: `Refused ${tag}` });
    expect(patchedNow.status).toBe(200);
    expect((await call('DELETE', `/users/${doomed.id}`)).status).toBe(204);
    const onDisk = await readDisk();
    expect(onDisk.users[String(made.json<{ id: number }>().id)]?.email).toBe(
      `refused-${tag}@example.com`,
    );
    expect(onDisk.users[String(patched.id)]?.name).toBe(`Refused ${tag}`);
    expect(onDisk.users[String(doomed.id)]).toBeUndefined();
  });

  it('when the file cannot even be read back, reads are 503 too, never the refused change', async () => {
    const tag = `reload-${Date.now()}`;
    const patched = await newUser(tag);
    const before = await readFile(dbFile, 'utf8');
    disk.failWrites(fsError('EIO', 'i/o error'));
    disk.failReads(fsError('EIO', 'i/o error'));
    try {
      expectUnavailable(await call('PATCH', `/users/${patched.id}`, { name: 'Refused' }));
      // Memory may still hold the refused change: nobody may read it.
      expectUnavailable(await call('GET', `/users/${patched.id}`));
      expectUnavailable(await call('GET', '/users'));
    } finally {
      disk.healWrites();
      disk.healReads();
    }
    expect(await readFile(dbFile, 'utf8')).toBe(before);
    // Recovers by itself (reads trigger the reload), within a few bounded retries.
    let read: HttpAnswer | undefined;
    for (let attempt = 0; attempt < 20; attempt += 1) {
      read = await call('GET', `/users/${patched.id}`);
      if (read.status === 200) break;
      expectUnavailable(read);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(read?.status).toBe(200);
    expect(read?.json<{ name: string }>().name).toBe(patched.name);
    expect((await call('PATCH', `/users/${patched.id}`, { name: 'Accepted' })).status).toBe(200);
    expect((await readDisk()).users[String(patched.id)]?.name).toBe('Accepted');
  });
});
