import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startPostgresInstances,
  type PostgresInstances,
} from '../support/postgres/postgres-instances.js';
import { callApi, countStatuses } from '../support/postgres/call-api.js';

// Issue 22, item 3, beyond the races of cross-instance-races.test.ts: idempotency keys, the
// order state machine and cascading deletes, each raced over three instances on one database
// (requests sent straight to the instances in turn; servers in this process, then `apikit
// serve` child processes), the database read afterwards.

let multi: PostgresInstances;
let token: string;
let db: pg.Client;

const api = (i: number) => multi.apis[i % multi.apis.length]!;
const send = (i: number, method: string, path: string, body?: unknown, headers = {}) =>
  callApi(api(i), method, path, {
    token,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const count = async (sql: string, params: unknown[]) =>
  (await db.query(sql, params)).rows[0].n as number;
let emails = 0;
const uniqueEmail = () => `writer-${++emails}-${Date.now()}@example.com`;

async function newOrder(userId: number, status?: 'PAID') {
  const item = { product: 'Race item', quantity: 1 };
  const body = { product: 'Race', categoryId: 1, items: [item] };
  const created = await send(0, 'POST', `/users/${userId}/orders`, body);
  expect(created.status, created.text).toBe(201);
  const order = created.json<{ id: number }>();
  if (status) {
    const paid = await send(1, 'PATCH', `/users/${userId}/orders/${order.id}`, { status });
    expect(paid.status, paid.text).toBe(200);
  }
  return order;
}

async function newUserId(): Promise<number> {
  const created = await send(2, 'POST', '/users', { name: 'Writer', email: uniqueEmail() });
  expect(created.status, created.text).toBe(201);
  return created.json<{ id: number }>().id;
}

describe.each([
  ['servers in this process', false],
  ['apikit serve child processes', true],
])('writes racing across three instances on one PostgreSQL database: %s', (_name, processes) => {
  beforeAll(async () => {
    multi = await startPostgresInstances({ count: 3, processes });
    const body = JSON.stringify({ username: 'admin@example.com', password: 'admin-demo-password' });
    token = (await callApi(api(0), 'POST', '/auth/login', { body })).json<{ accessToken: string }>()
      .accessToken;
    db = new pg.Client({ connectionString: multi.databaseUrl });
    await db.connect();
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await multi?.close();
  });

  it('one Idempotency-Key sent to every instance at once: one user made, every 201 the same answer, the rest 409 in use', async () => {
    const email = uniqueEmail();
    const key = `race-${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        send(i, 'POST', '/users', { name: 'Once', email }, { 'Idempotency-Key': key }),
      ),
    );
    const counts = countStatuses(answers);
    console.info(`one key on three instances: ${JSON.stringify(counts)}`);
    expect(counts[201], JSON.stringify(counts)).toBeGreaterThanOrEqual(1);
    expect((counts[201] ?? 0) + (counts[409] ?? 0), JSON.stringify(counts)).toBe(12);
    const created = answers.filter((a) => a.status === 201);
    expect(new Set(created.map((a) => a.text)).size).toBe(1);
    for (const refused of answers.filter((a) => a.status === 409))
      expect(refused.json<{ type: string }>().type).toBe(
        'urn:apikit:problem:idempotency-key-in-use',
      );
    expect(await count(`SELECT count(*)::int AS n FROM users WHERE email_key = $1`, [email])).toBe(
      1,
    );
    // Once done, every instance replays it.
    for (const i of [0, 1, 2]) {
      const again = await send(
        i,
        'POST',
        '/users',
        { name: 'Once', email },
        { 'Idempotency-Key': key },
      );
      expect([again.status, again.text]).toEqual([201, created[0]!.text]);
    }
  });

  it('shipping and cancelling one PAID order at once: one direction wins, every answer agrees with it (5 rounds)', async () => {
    const userId = await newUserId();
    for (let round = 0; round < 5; round++) {
      const order = await newOrder(userId, 'PAID');
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          i % 2
            ? send(i, 'POST', `/orders/${order.id}/cancel`)
            : send(i, 'PATCH', `/users/${userId}/orders/${order.id}`, { status: 'SHIPPED' }),
        ),
      );
      const final = (await send(round, 'GET', `/orders/${order.id}`)).json<{ status: string }>();
      const ships = answers.filter((_, i) => i % 2 === 0).map((a) => a.status);
      const cancels = answers.filter((_, i) => i % 2 === 1).map((a) => a.status);
      const [won, lost] = final.status === 'SHIPPED' ? [ships, cancels] : [cancels, ships];
      expect(['SHIPPED', 'CANCELLED']).toContain(final.status);
      expect(
        won.every((s) => s === 200),
        `${final.status}: ${won}`,
      ).toBe(true);
      expect(
        lost.every((s) => s === 409),
        `${final.status}: ${lost}`,
      ).toBe(true);
    }
  });

  it('deleting a user while orders are placed for them on other instances leaves no order behind', async () => {
    // The DELETE leaves later and later: the orders' transactions land before, around, after it.
    for (const delayMs of [0, 1, 2, 3, 4, 6, 8]) {
      const userId = await newUserId();
      await newOrder(userId);
      const late = (i: number) =>
        send(i + 1, 'POST', `/users/${userId}/orders`, {
          product: 'Late',
          categoryId: 1,
          items: [{ product: 'Late item', quantity: 1 }],
        });
      const deleted = new Promise((resolve) => setTimeout(resolve, delayMs)).then(() =>
        send(0, 'DELETE', `/users/${userId}`),
      );
      const answers = await Promise.all([
        deleted,
        ...Array.from({ length: 15 }, (_, i) => late(i)),
      ]);
      expect(answers[0]!.status).toBe(204);
      const placed = countStatuses(answers.slice(1));
      console.info(`orders placed while deleting: ${JSON.stringify(placed)}`);
      expect(
        Object.keys(placed).every((s) => s === '201' || s === '404'),
        JSON.stringify(placed),
      ).toBe(true);
      expect(
        await count(`SELECT count(*)::int AS n FROM orders WHERE user_id = $1`, [userId]),
      ).toBe(0);
      const orphans = `SELECT count(*)::int AS n FROM order_items i
        WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = i.order_id)`;
      expect(await count(orphans, [])).toBe(0);
    }
  });
});
