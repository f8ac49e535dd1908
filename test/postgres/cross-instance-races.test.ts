import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJwtAccessTokenCodec } from '../../node-runtime/jwt-access-token-codec.js';
import {
  SHARED_JWT_SECRET,
  startPostgresInstances,
  type PostgresInstances,
} from '../support/postgres/postgres-instances.js';
import { callApi, countStatuses, type Answer } from '../support/postgres/call-api.js';

// Issue 22: every rule holds across instances. Three reference servers on one PostgreSQL
// database, first in this process, then as three `apikit serve` child processes (separate
// event loops, nothing shared in memory); each race sends its requests straight to the
// instances in turn (not only through the balancer), so that the competing transactions run
// in three pools at once.

let multi: PostgresInstances;
let adminToken: string;
let db: pg.Client;
/** Signs as the instances do (one shared secret), for accounts that have no password. */
const tokens = createJwtAccessTokenCodec(SHARED_JWT_SECRET);

/** The i-th request's instance: 0, 1, 2, 0, ... */
const api = (i: number) => multi.apis[i % multi.apis.length]!;
const asAdmin = (i: number, method: string, path: string, extra: RequestInit = {}) =>
  callApi(api(i), method, path, { token: adminToken, ...extra });
const json = (body: unknown): RequestInit => ({ body: JSON.stringify(body) });
const login = async (i: number, username: string, password: string) => {
  const answer = await callApi(api(i), 'POST', '/auth/login', json({ username, password }));
  expect(answer.status, answer.text).toBe(200);
  return answer.json<{ accessToken: string; refreshToken: string }>();
};
const refresh = (i: number, refreshToken: string) =>
  callApi(api(i), 'POST', '/auth/refresh', json({ refreshToken }));
let created = 0;
const newUser = async (i = 0) => {
  const email = `racer-${++created}-${Date.now()}@example.com`;
  const answer = await asAdmin(i, 'POST', '/users', json({ name: 'Racer', email }));
  expect(answer.status, answer.text).toBe(201);
  return answer.json<{ id: number; email: string }>();
};

describe.each([
  ['servers in this process', false],
  ['apikit serve child processes', true],
])('races across three instances on one PostgreSQL database: %s', (_name, processes) => {
  beforeAll(async () => {
    multi = await startPostgresInstances({ count: 3, processes });
    adminToken = (await login(0, 'admin@example.com', 'admin-demo-password')).accessToken;
    db = new pg.Client({ connectionString: multi.databaseUrl });
    await db.connect();
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await multi?.close();
  });

  it('200 concurrent creates of one email (in varying case): one 201, 199 409 duplicate-email', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        asAdmin(
          i,
          'POST',
          '/users',
          json({ name: `Same ${i}`, email: i % 2 ? 'SAME@example.com' : 'same@Example.COM' }),
        ),
      ),
    );
    expect(countStatuses(answers)).toEqual({ 201: 1, 409: 199 });
    const types = new Set(
      answers.filter((a) => a.status === 409).map((a) => a.json<{ type: string }>().type),
    );
    expect([...types]).toEqual(['urn:apikit:problem:duplicate-email']);
    const rows = await db.query(
      `SELECT count(*)::int AS n FROM users WHERE email_key = 'same@example.com'`,
    );
    expect(rows.rows[0].n).toBe(1);
  });

  it('writers racing with one ETag (If-Match, PATCH and PUT): one 200, the others 412', async () => {
    const user = await newUser();
    const etag = (await asAdmin(1, 'GET', `/users/${user.id}`)).headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const headers = { 'If-Match': etag };
        return i % 2
          ? asAdmin(i, 'PATCH', `/users/${user.id}`, { headers, ...json({ name: `Writer ${i}` }) })
          : asAdmin(i, 'PUT', `/users/${user.id}`, {
              headers,
              ...json({ name: `Writer ${i}`, email: user.email }),
            });
      }),
    );
    expect(countStatuses(answers)).toEqual({ 200: 1, 412: 29 });
    const winner = answers.findIndex((a) => a.status === 200);
    const now = await asAdmin(2, 'GET', `/users/${user.id}`);
    expect(now.json<{ name: string }>().name).toBe(`Writer ${winner}`);
    expect(now.headers.get('etag')).not.toBe(etag);
    // A PATCH's 200 carries the new ETag; a PUT's does not (the contract declares none there).
    if (winner % 2) expect(now.headers.get('etag')).toBe(answers[winner]!.headers.get('etag'));
  });

  it('concurrent PUT-creates of one id: one 201, the others replace it (200); ids go on past it', async () => {
    const id = 700_000 + Math.floor(Math.random() * 1000);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        asAdmin(
          i,
          'PUT',
          `/users/${id}`,
          json({ name: `Putter ${i}`, email: `putter-${id}-${i}@example.com` }),
        ),
      ),
    );
    expect(countStatuses(answers)).toEqual({ 200: 29, 201: 1 });
    const next = await newUser(2);
    expect(next.id).toBeGreaterThan(id);
  });

  it('concurrent PUT-creates of one id with If-None-Match: *: one 201, the others 412', async () => {
    const id = 800_000 + Math.floor(Math.random() * 1000);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        asAdmin(i, 'PUT', `/users/${id}`, {
          headers: { 'If-None-Match': '*' },
          ...json({ name: `Putter ${i}`, email: `inm-${id}-${i}@example.com` }),
        }),
      ),
    );
    expect(countStatuses(answers)).toEqual({ 201: 1, 412: 29 });
  });

  it('a refresh token replayed on another instance revokes its family on every instance', async () => {
    const first = await login(0, 'user@example.com', 'user-demo-password');
    const rotated = await refresh(1, first.refreshToken);
    expect(rotated.status).toBe(200);
    const second = rotated.json<{ refreshToken: string }>();
    const replay = await refresh(2, first.refreshToken);
    expect(replay.status).toBe(401);
    expect(replay.json<{ type: string }>().type).toBe('urn:apikit:problem:invalid-refresh-token');
    for (const i of [0, 1, 2]) expect((await refresh(i, second.refreshToken)).status).toBe(401);
  });

  it('one refresh token sent to three instances at once: one 200, and the family is revoked', async () => {
    const pair = await login(1, 'user@example.com', 'user-demo-password');
    const answers = await Promise.all(
      Array.from({ length: 9 }, (_, i) => refresh(i, pair.refreshToken)),
    );
    expect(countStatuses(answers)).toEqual({ 200: 1, 401: 8 });
    const winner = answers.find((a) => a.status === 200)!.json<{ refreshToken: string }>();
    expect((await refresh(2, winner.refreshToken)).status).toBe(401);
  });

  it('concurrent demotions of every ADMIN never leave none (5 rounds)', async () => {
    const adminCount = async () =>
      (
        await db.query(
          `SELECT count(*)::int AS n FROM users WHERE role_ids @> '{2}' AND status <> 'BLOCKED'`,
        )
      ).rows[0].n as number;
    const targets = [
      1,
      ...(await Promise.all([0, 1, 2, 0].map((i) => newUser(i)))).map((u) => u.id),
    ];
    const rounds: string[] = [];
    for (let round = 0; round < 5; round++) {
      // Promote every target (a token of whichever ADMIN is left: roles are read at request).
      const [remaining] = (
        await db.query(`SELECT id FROM users WHERE role_ids @> '{2}' ORDER BY id LIMIT 1`)
      ).rows;
      const token = await tokens.sign(
        { sub: String(remaining.id), name: 'Admin', role: 'ADMIN' },
        900,
        new Date(),
      );
      for (const id of targets) {
        const promoted = await callApi(api(id), 'PUT', `/users/${id}/roles/2`, { token });
        expect(promoted.status, promoted.text).toBe(204);
      }
      expect(await adminCount()).toBe(targets.length);
      const answers: Answer[] = await Promise.all(
        targets.map((id, i) =>
          callApi(api(i + round), 'DELETE', `/users/${id}/roles/2`, { token }),
        ),
      );
      const left = await adminCount();
      expect(left).toBeGreaterThanOrEqual(1);
      const counts = countStatuses(answers);
      expect(
        Object.keys(counts).every((status) => ['204', '403', '409'].includes(status)),
        JSON.stringify(counts),
      ).toBe(true);
      // 403: the caller's own ADMIN went first (roles are read at request), not a broken rule.
      expect(counts[204] ?? 0).toBe(targets.length - left);
      rounds.push(JSON.stringify(counts));
    }
    console.info(`demotion rounds: ${rounds.join(' ')}`);
  });

  it('every ADMIN demoted or blocked at once never leaves no unblocked ADMIN (5 rounds)', async () => {
    const unblockedAdmins = `SELECT id FROM users WHERE role_ids @> '{2}' AND status <> 'BLOCKED' ORDER BY id`;
    const firstAdmin = async () => Number((await db.query(unblockedAdmins)).rows[0].id);
    const signAs = (id: number) =>
      tokens.sign({ sub: String(id), name: 'Admin', role: 'ADMIN' }, 900, new Date());
    const targets = (await Promise.all([0, 1, 2, 0].map((i) => newUser(i)))).map((u) => u.id);
    const tokenOf = await Promise.all(targets.map(signAs));
    const rounds: string[] = [];
    for (let round = 0; round < 5; round++) {
      // Made whole again by an unblocked ADMIN, so that the four fresh ADMINs, each acted on
      // by another, are all there are (user 1 is given ADMIN back after each race).
      const token = await signAs(await firstAdmin());
      for (const id of targets) {
        const unblocked = await callApi(api(id), 'POST', `/admin/users/${id}/unblock`, { token });
        const promoted = await callApi(api(id), 'PUT', `/users/${id}/roles/2`, { token });
        expect([unblocked.status, promoted.status], promoted.text).toEqual([200, 204]);
      }
      // Every other ADMIN (user 1, any the test before left) steps aside for the race.
      const others = (await db.query(unblockedAdmins)).rows
        .map((row) => Number(row.id)) // bigint: a string from a plain pg client
        .filter((id) => !targets.includes(id));
      for (const id of others) {
        const aside = await callApi(api(id), 'DELETE', `/users/${id}/roles/2`, {
          token: tokenOf[0]!,
        });
        expect(aside.status, aside.text).toBe(204);
      }
      const answers = await Promise.all(
        targets.map((id, i) => {
          const caller = { token: tokenOf[(i + 1) % targets.length]! };
          return (i + round) % 2
            ? callApi(api(i + round), 'POST', `/admin/users/${id}/block`, caller)
            : callApi(api(i + round), 'DELETE', `/users/${id}/roles/2`, caller);
        }),
      );
      const remaining = (await db.query(unblockedAdmins)).rows.length;
      expect(remaining).toBeGreaterThanOrEqual(1);
      const counts = countStatuses(answers);
      rounds.push(JSON.stringify(counts));
      // 200 blocked, 204 demoted, 409 refused as the last; 401/403: the caller went first.
      const known = ['200', '204', '401', '403', '409'];
      expect(
        Object.keys(counts).every((s) => known.includes(s)),
        JSON.stringify(counts),
      ).toBe(true);
      expect((counts[200] ?? 0) + (counts[204] ?? 0)).toBe(targets.length - remaining);
      const back = await callApi(api(0), 'PUT', '/users/1/roles/2', {
        token: await signAs(await firstAdmin()),
      });
      expect(back.status, back.text).toBe(204);
    }
    console.info(`demote-or-block rounds: ${rounds.join(' ')}`);
  });
});
