import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFileTestServer, type FileTestServer } from '../start-file-test-server.js';
import type { TestServer } from '../start-test-server.js';
import type { Dataset } from '../../core/domain/dataset.js';
import { seededRandom } from '../../spec/schema/seeded-random.js';
import type { FailingAdapter } from '../support/store/failing-adapter.js';
import { authJson, listAllUsers, REQUEST_TIMEOUT_MS, type UserSeen } from './api-calls.js';
import { explainAsSerialHistory, type FieldWrite } from './serial-history.js';

/*
 * Concurrency against the real disk: the server runs in-process on a DurableJsonFile in a
 * temp dir, wrapped in FailingAdapter (never told to fail here) only to count the flushes.
 */

const PARALLEL_CREATES = 200;
/** PATCHes per field (name, email, age) in one trial, all in flight at once. */
const PATCHES_PER_FIELD = 30;
/** Trials of the PATCH race, each in another seeded launch order. */
const PATCH_TRIALS = 4;
/**
 * Group commit: one flush carries every write applied while the previous flush was on disk.
 * A flush per write would be 200. How many share a flush follows the disk's time against the
 * requests' own: since the file is replaced on a worker thread (decision 0031), a flush takes
 * about the disk's time only, and 200 creates have taken 41-86 flushes here (7-16 when every
 * flush waited for nine turns of the busy event loop). The store's unit tests pin the batching
 * itself with a disk of fixed latency; this bound only says that batching happened.
 */
const MAX_FLUSHES_FOR_200_CREATES = 150;

let dbFile: string;
let disk: FailingAdapter<Dataset>;
let server: TestServer;
const random = seededRandom(7_919);

let fixture: FileTestServer | undefined;

beforeAll(async () => {
  fixture = await startFileTestServer('apikit-concurrency-');
  ({ dbFile, disk, server } = fixture);
});

afterAll(() => fixture?.close());

function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = random.int(0, i);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

async function call(method: string, path: string, body?: unknown, contentType?: string) {
  const res = await fetch(`${server.api}${path}`, {
    method,
    headers: authJson(server.adminToken, contentType),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: res.status, body: (await res.json()) as UserSeen };
}

function fileUsers(): Dataset['users'] {
  return (JSON.parse(readFileSync(dbFile, 'utf8')) as Dataset).users;
}

describe('concurrent writes on the file store', () => {
  it(`${PARALLEL_CREATES} parallel POST /users: distinct ids, all listed, on disk before the 201, few flushes`, async () => {
    const before = await listAllUsers(server.api, server.adminToken);
    const counter = (JSON.parse(await readFile(dbFile, 'utf8')) as Dataset).counters.users;
    const flushesBefore = disk.writeCount;
    const notOnDiskAtAck: number[] = [];
    const created = await Promise.all(
      Array.from({ length: PARALLEL_CREATES }, async (_, i) => {
        const email = `parallel-${i}@example.com`;
        const res = await call('POST', '/users', {
          name: `Parallel ${i}`,
          email,
          age: 18 + (i % 60),
        });
        // Acknowledged means durable: the file already holds the user when the 201 arrives.
        if (res.status === 201 && fileUsers()[String(res.body.id)]?.email !== email)
          notOnDiskAtAck.push(res.body.id);
        return { ...res, email };
      }),
    );
    const flushes = disk.writeCount - flushesBefore;

    expect(created.filter((res) => res.status !== 201)).toEqual([]);
    expect(notOnDiskAtAck, 'acknowledged before the file held them').toEqual([]);
    const ids = created.map((res) => res.body.id);
    expect(new Set(ids).size).toBe(PARALLEL_CREATES);
    // Ids are the counter's next values, none skipped or doubled.
    expect([...ids].sort((a, b) => a - b)).toEqual(
      Array.from({ length: PARALLEL_CREATES }, (_, i) => counter + 1 + i),
    );
    const after = await listAllUsers(server.api, server.adminToken);
    expect(after.size).toBe(before.size + PARALLEL_CREATES);
    for (const res of created) expect(after.get(res.body.id)?.email).toBe(res.email);
    const onDisk = fileUsers();
    for (const res of created) expect(onDisk[String(res.body.id)]?.email).toBe(res.email);

    console.info(`${PARALLEL_CREATES} concurrent creates took ${flushes} file writes`);
    expect(flushes).toBeGreaterThan(0);
    expect(flushes).toBeLessThanOrEqual(MAX_FLUSHES_FOR_200_CREATES);
  });

  it(`${PATCH_TRIALS} races of ${PATCHES_PER_FIELD} PATCHes each of name, email and age lose nothing`, async () => {
    type Field = 'name' | 'email' | 'age';
    for (let trial = 0; trial < PATCH_TRIALS; trial += 1) {
      const initial = {
        name: `Original ${trial}`,
        email: `original-${trial}@example.com`,
        age: 99,
      };
      const made = await call('POST', '/users', initial);
      expect(made.status).toBe(201);
      const id = made.body.id;
      const patches: { field: Field; value: string | number }[] = [];
      for (let i = 0; i < PATCHES_PER_FIELD; i += 1) {
        patches.push({ field: 'name', value: `Name ${trial}-${i}` });
        patches.push({ field: 'email', value: `patched-${trial}-${i}@example.com` });
        patches.push({ field: 'age', value: 20 + i });
      }
      const answers = await Promise.all(
        shuffled(patches).map(async ({ field, value }, n) => {
          // Both media types PATCH takes, alternately.
          const type = n % 2 ? 'application/merge-patch+json' : 'application/json';
          const res = await call('PATCH', `/users/${id}`, { [field]: value }, type);
          expect(res.status, `PATCH ${field}=${value}`).toBe(200);
          const after = { name: res.body.name, email: res.body.email, age: res.body.age };
          return { field, value, after } satisfies FieldWrite<Field>;
        }),
      );
      const read = await call('GET', `/users/${id}`);
      const final = { name: read.body.name, email: read.body.email, age: read.body.age };

      // Some serial order of all 90 writes explains every answer and the final state.
      const order = explainAsSerialHistory<Field>(initial, answers, final);
      for (const field of ['name', 'email', 'age'] as const) {
        const last = order.filter((write) => write.field === field).at(-1);
        expect(final[field], `trial ${trial}: ${field}`).toBe(last?.value);
        expect(final[field]).not.toBe(initial[field]);
      }
      expect(fileUsers()[String(id)]).toMatchObject(final);
    }
  });

  it('PUT-create at chosen ids racing POST /users: no id taken twice, counter past both', async () => {
    const posts = 100;
    const counter = (JSON.parse(await readFile(dbFile, 'utf8')) as Dataset).counters.users;
    // Even ids over the range the POSTs will take: some PUTs find their id already POSTed.
    const putIds = Array.from({ length: 50 }, (_, k) => counter + 2 * (k + 1));
    const requests = shuffled([
      ...Array.from({ length: posts }, (_, i) => ({ kind: 'post' as const, i, id: 0 })),
      ...putIds.map((id, i) => ({ kind: 'put' as const, i, id })),
    ]);
    const answers = await Promise.all(
      requests.map(async (req) => {
        const email = `${req.kind}-race-${req.i}@example.com`;
        const body = { name: `Race ${req.kind} ${req.i}`, email };
        const res =
          req.kind === 'post'
            ? await call('POST', '/users', body)
            : await call('PUT', `/users/${req.id}`, body);
        return { ...req, email, status: res.status, id: res.body.id };
      }),
    );
    const posted = answers.filter((a) => a.kind === 'post');
    const putCreated = answers.filter((a) => a.kind === 'put' && a.status === 201);
    const putReplaced = answers.filter((a) => a.kind === 'put' && a.status === 200);
    expect(posted.every((a) => a.status === 201 && a.id > counter)).toBe(true);
    expect(putCreated.length + putReplaced.length).toBe(putIds.length);
    expect(answers.filter((a) => a.kind === 'put').every((a) => putIds.includes(a.id))).toBe(true);

    const createdIds = [...posted, ...putCreated].map((a) => a.id);
    expect(new Set(createdIds).size, 'two creates were given one id').toBe(createdIds.length);
    // A PUT that found its id taken can only have found a user a POST had just made.
    const postedIds = new Set(posted.map((a) => a.id));
    for (const a of putReplaced) expect(postedIds.has(a.id), `PUT ${a.id} replaced`).toBe(true);

    const users = await listAllUsers(server.api, server.adminToken);
    const replacedBy = new Map(putReplaced.map((a) => [a.id, a.email]));
    for (const a of posted) expect(users.get(a.id)?.email).toBe(replacedBy.get(a.id) ?? a.email);
    for (const a of putCreated) expect(users.get(a.id)?.email).toBe(a.email);

    const next = await call('POST', '/users', { name: 'Next', email: 'race-next@example.com' });
    expect(next.body.id).toBe(Math.max(...createdIds) + 1);
    console.info(
      `PUT vs POST race: ${putCreated.length} PUT-created, ${putReplaced.length} PUT found a POSTed id`,
    );
  });
});
