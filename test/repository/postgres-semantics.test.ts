import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../core/domain/store.js';
import { openPostgresRepository } from '../../reference-server/store/postgres/open-postgres-repository.js';
import {
  orderRecord,
  refreshToken,
  testDataset,
  userRecord,
} from '../support/domain/test-dataset.js';
import { usePostgresCluster } from '../support/postgres/postgres-cluster.js';

// What the PostgreSQL repository adds to the port's suite: one snapshot under concurrent
// commits, a duplicate that is a bug rather than a race, closing under way.
const postgres = usePostgresCluster();

async function open(connectionString?: string) {
  const { repository } = await openPostgresRepository({
    connectionString: connectionString ?? (await postgres.wipedDatabase()),
    seed: async () => testDataset(),
    poolSize: 4,
  });
  return repository;
}

describe('PostgreSQL repository semantics', () => {
  it('reads one snapshot while other transactions commit', async () => {
    const repository = await open();
    const seen = await repository.snapshot(async (reader) => {
      const before = await reader.user(2);
      await repository.transact(async (tx) => {
        await tx.putUser({ ...before!, name: 'Changed' });
        await tx.deleteOrder(1);
      });
      return { user: (await reader.user(2))?.name, order: (await reader.order(1))?.id };
    });
    expect(seen).toEqual({ user: 'Bob', order: 1 });
    expect((await repository.user(2))?.name).toBe('Changed');
    await repository.close();
  });

  it('fails a transaction that writes a taken email without checking: the error, 3 runs', async () => {
    const repository = await open();
    let runs = 0;
    const attempt = repository.transact(async (tx) => {
      runs += 1;
      await tx.putUser(userRecord(await tx.nextId('users'), { email: 'ADA@example.com' }));
    });
    const error = await attempt.catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(StoreUnavailableError);
    expect((error as { code?: string }).code).toBe('23P01');
    expect(runs).toBe(3);
    expect(await repository.usersByEmail('ada@example.com')).toHaveLength(1);
    await repository.close();
  });

  it('loads a large data set with its indexes built after, and rolls that back whole', async () => {
    const url = await postgres.freshDatabase();
    const repository = await open(url);
    const indexes = async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query(
        "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'users' ORDER BY 1",
      );
      await client.end();
      return rows;
    };
    const before = await indexes();
    const large = testDataset();
    for (let id = 5; id <= 12_000; id += 1) {
      large.users[id] = userRecord(id);
      large.orders[id] = orderRecord(id, id);
      large.orderItems[id] = { id, orderId: id, product: 'Pen', quantity: 1 };
    }
    large.counters = { users: 12_000, orders: 12_000, orderItems: 12_000 };
    await repository.transact((tx) => tx.replaceDataSet(large));
    expect(await indexes()).toEqual(before);
    const page = await repository.listUsers({
      sort: [{ field: 'email', direction: 'desc' }],
      offset: 0,
      limit: 2,
    });
    expect({ total: page.total, ids: page.users.map((user) => user.id) }).toEqual({
      total: 12_000,
      ids: [9, 99], // "user9@" after "user99@": "@" is after "9"
    });
    const failing = repository.transact(async (tx) => {
      await tx.replaceDataSet({ ...large, users: { ...large.users, 12_001: userRecord(12_001) } });
      throw new Error('rolled back');
    });
    await expect(failing).rejects.toThrow('rolled back');
    expect(await indexes()).toEqual(before);
    expect(await repository.user(12_001)).toBeUndefined();
    expect((await repository.listUsers({ sort: [], offset: 0, limit: 1 })).total).toBe(12_000);
    await repository.close();
  });

  it('seeds a new database with many refresh tokens and orders', async () => {
    const seed = testDataset();
    for (let id = 6; id <= 10_005; id += 1) {
      seed.refreshTokens[`h${id}`] = refreshToken(`h${id}`, 1);
      seed.orders[id] = orderRecord(id, 2);
    }
    seed.counters.orders = 10_005;
    const { repository } = await openPostgresRepository({
      connectionString: await postgres.wipedDatabase(),
      seed: async () => seed,
    });
    expect(await repository.refreshToken('h10005')).toEqual(seed.refreshTokens['h10005']);
    expect(await repository.ordersOfUser(2)).toHaveLength(10_002);
    await repository.close();
  });

  it('lets the transactions under way finish when closed, then refuses', async () => {
    const url = await postgres.freshDatabase();
    const repository = await open(url);
    const slow = repository.transact(async (tx) => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const id = await tx.nextId('users');
      await tx.putUser(userRecord(id));
      return id;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const closing = repository.close();
    const id = await slow;
    await closing;
    await expect(repository.user(1)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(repository.transact((tx) => tx.user(1))).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    const reopened = await open(url);
    expect(await reopened.user(id)).toBeDefined();
    await reopened.close();
  });
});
