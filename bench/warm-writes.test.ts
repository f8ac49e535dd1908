import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFileTestServer } from '../test/start-file-test-server.js';
import type { TestServer } from '../test/start-test-server.js';
import { writeJsonServerStore, benchDataset, demoDataset } from './seed-store.js';
import { startJsonServer017 } from './subjects/json-server-subjects.js';
import type { Subject } from './subjects/subject.js';
import { createdUrl, warmWrites } from './warm-writes.js';

const BODY = '{"name":"Warm User","email":"warm.{{n}}@example.com","age":30}';

const userCount = async (url: string, headers: Record<string, string>) => {
  const res = await fetch(url, { headers });
  return ((await res.json()) as { totalElements: number }).totalElements;
};

describe('warmWrites: a write path warmed up at the store size it is measured at (decision 0038)', () => {
  describe('against the reference server on its file store', () => {
    let server: TestServer;
    let dbFile: string;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ server, dbFile, close } = await startFileTestServer('apikit-warm-'));
    });
    afterAll(() => close());
    const usersOnDisk = async () =>
      Object.keys((JSON.parse(await readFile(dbFile, 'utf8')) as { users: object }).users).length;

    it('creates and deletes the users again, concurrently, and leaves the store as large as it was', async () => {
      const headers = { Authorization: `Bearer ${server.adminToken}` };
      const before = await userCount(`${server.api}/users?size=1`, headers);
      const onDisk = await usersOnDisk();
      const result = await warmWrites({
        createUrl: `${server.api}/users`,
        headers,
        body: BODY,
        connections: 8,
        pairs: 40,
        maxSeconds: 20,
      });
      expect(result.pairs).toBe(40);
      expect(await userCount(`${server.api}/users?size=1`, headers)).toBe(before);
      expect(await usersOnDisk()).toBe(onDisk);
    });

    it('stops at its time limit, finishing the pairs in flight', async () => {
      const result = await warmWrites({
        createUrl: `${server.api}/users`,
        headers: { Authorization: `Bearer ${server.adminToken}` },
        body: BODY,
        connections: 2,
        pairs: 1_000_000,
        maxSeconds: 0.3,
      });
      expect(result.pairs).toBeGreaterThan(0);
      expect(result.pairs).toBeLessThan(1_000_000);
      expect(result.seconds).toBeLessThan(10);
    });

    it('names the answer when a create is refused', async () => {
      await expect(
        warmWrites({
          createUrl: `${server.api}/users`,
          headers: {},
          body: BODY,
          connections: 1,
          pairs: 1,
          maxSeconds: 5,
        }),
      ).rejects.toThrow(/POST .*\/users answered 401/);
    });
  });

  describe('against json-server 0.17 (the id in the body, no Location)', () => {
    let dir: string;
    let subject: Subject;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'apikit-warm-'));
      const file = join(dir, 'db.json');
      await writeJsonServerStore(file, benchDataset(await demoDataset(), 50));
      subject = await startJsonServer017(file);
    });
    afterAll(async () => {
      await subject?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    it('leaves its file with the users it had', async () => {
      const count = async () =>
        (JSON.parse(await readFile(join(dir, 'db.json'), 'utf8')) as { users: unknown[] }).users
          .length;
      const before = await count();
      const result = await warmWrites({
        createUrl: `${subject.url}/users`,
        headers: {},
        body: BODY,
        connections: 4,
        pairs: 20,
        maxSeconds: 20,
      });
      expect(result.pairs).toBe(20);
      // json-server answers before its (asynchronous) write of the file.
      await vi.waitFor(async () => expect(await count()).toBe(before), { timeout: 5_000 });
    });
  });
});

describe('createdUrl', () => {
  it('follows a relative Location against the URL posted to', () => {
    expect(createdUrl('http://127.0.0.1:9/api/v1/users', '/api/v1/users/7', '')).toBe(
      'http://127.0.0.1:9/api/v1/users/7',
    );
  });

  it("takes the body's id without a Location, and refuses an answer that names none", () => {
    expect(createdUrl('http://127.0.0.1:9/users', null, '{"id":12,"name":"x"}')).toBe(
      'http://127.0.0.1:9/users/12',
    );
    expect(() => createdUrl('http://127.0.0.1:9/users', null, '{}')).toThrow(/names no created/);
  });
});
