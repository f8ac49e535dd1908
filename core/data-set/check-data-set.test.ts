import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBundledSpec } from '../../spec/bundled-spec.js';
import type { OpenApiDocument } from '../../spec/load-spec.js';
import { packageRoot } from '../../spec/spec-path.js';
import { createWebCryptoPasswordHasher } from '../../mocks/web-crypto-password-hasher.js';
import { buildDataSet } from './build-data-set.js';
import { checkDataSet } from './check-data-set.js';
import { InvalidDataSetError } from './data-set-format.js';
import { dataSetSeed } from './load-data-set.js';

let spec: OpenApiDocument;
const now = new Date('2026-03-01T12:00:00.000Z');
const shop = async () =>
  JSON.parse(
    await readFile(join(packageRoot, 'examples', 'data-sets', 'shop.json'), 'utf8'),
  ) as unknown;

beforeAll(async () => {
  ({ spec } = await loadBundledSpec());
});

describe('checkDataSet', () => {
  it('accepts the documented example and fills in the defaults', async () => {
    const checked = checkDataSet(await shop(), spec, now);
    if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
    const [olivia, sam, nina, bob] = checked.data.users;
    expect(olivia).toMatchObject({
      roles: ['USER', 'ADMIN'],
      status: 'ACTIVE',
      createdAt: '2026-02-01T08:00:00.000Z', // normalized to the store's ISO form
      updatedAt: '2026-02-01T08:00:00.000Z', // defaults to createdAt
      password: 'olivia-shop-password',
    });
    expect(sam).toMatchObject({ roles: ['USER'], age: null });
    expect(nina).toMatchObject({
      status: 'INACTIVE',
      createdAt: now.toISOString(),
      password: null,
    });
    expect(bob?.status).toBe('BLOCKED');
    expect(checked.data.orders[1]).toMatchObject({ id: 2, status: 'PENDING' });
    expect(checked.data.items).toHaveLength(4);
  });

  it('lists every problem at once, each with a pointer into the file', () => {
    const items = Array.from({ length: 101 }, (_, i) => ({
      id: 100 + i,
      orderId: 2,
      product: 'Pen',
      quantity: 1,
    }));
    const checked = checkDataSet(
      {
        roles: [{ id: 1, name: 'USER' }],
        extra: true,
        users: [
          { id: 1, name: 'Ann', email: 'ann@example.com', status: 'BLOCKED', roles: ['ADMIN'] },
          { id: 1, name: 'Ann Again', email: 'ANN@example.com' },
          { id: 3, name: '', email: 'not-an-email', age: 12, emial: 'typo' },
          { id: 4, email: 'd@example.com', roles: ['OWNER'], password: '' },
          {
            id: 5,
            name: 'Eve',
            email: 'eve@example.com',
            createdAt: '2026-02-02T00:00:00Z',
            updatedAt: '2026-02-01T00:00:00Z',
          },
          'not a user',
        ],
        orders: [
          { id: 1, userId: 99, product: 'Lamp', categoryId: 42 },
          { id: 2, userId: 1, product: 'Pens', categoryId: 1, status: 'LOST' },
        ],
        items: [{ id: 1, orderId: 7, product: 'Lamp', quantity: 0, colour: 'red' }, ...items],
      },
      spec,
      now,
    );
    expect(checked.ok).toBe(false);
    const problems = checked.ok ? [] : checked.problems.map((p) => `${p.pointer}: ${p.message}`);
    const expected = [
      /^\/roles: is not part of a data set: the roles catalog is fixed/,
      /^\/extra: is not a known collection/,
      /^\/users\/1\/id: 1 is also the id of \/users\/0$/,
      /^\/users\/1\/email: ANN@example.com is also the email of \/users\/0/,
      /^\/users\/2\/emial: is not a known field/,
      /^\/users\/2\/name: must NOT have fewer than 1 characters$/,
      /^\/users\/2\/email: must match format "email"$/,
      /^\/users\/2\/age: must be >= 18$/,
      /^\/users\/3\/name: is required$/,
      /^\/users\/3\/roles\/0: must be one of "USER", "ADMIN"$/,
      /^\/users\/3\/password: must NOT have fewer than 1 characters$/,
      /^\/users\/4\/updatedAt: is before createdAt/,
      /^\/users\/5: must be an object \(got string\)$/,
      /^\/users: holds no ADMIN who is not BLOCKED/,
      /^\/orders\/0\/userId: user 99 is not in users$/,
      /^\/orders\/0\/categoryId: category 42 is not in the catalog \(1 Books, /,
      /^\/orders\/1\/status: must be one of "PENDING", /,
      /^\/orders\/1: has 101 items; the contract allows at most 100$/,
      /^\/items\/0\/colour: is not a known property$/,
      /^\/items\/0\/quantity: must be >= 1$/,
      /^\/items\/0\/orderId: order 7 is not in orders$/,
    ];
    for (const pattern of expected) expect(problems).toContainEqual(expect.stringMatching(pattern));
    expect(problems).toHaveLength(expected.length);
  });

  it('refuses what is not a data set at all', () => {
    for (const input of [null, [], 'users', 3]) {
      const checked = checkDataSet(input, spec, now);
      expect(checked.ok).toBe(false);
      expect(checked.ok ? '' : checked.problems[0]?.message).toMatch(/must be a JSON object/);
    }
    const checked = checkDataSet({ users: [] }, spec, now);
    expect(checked.ok ? [] : checked.problems.map((p) => p.message)).toEqual([
      'is empty: a data set needs at least one user, an ADMIN',
    ]);
    const missing = checkDataSet({ orders: [] }, spec, now);
    expect(missing.ok ? [] : missing.problems.map((p) => `${p.pointer}: ${p.message}`)).toEqual([
      '/users: is required (an array of records)',
    ]);
  });
});

describe('dataSetSeed and buildDataSet', () => {
  it('throws one InvalidDataSetError naming the source and listing every problem', () => {
    let error: unknown;
    try {
      dataSetSeed({ users: [{ id: 0, name: 'X', email: 'x@example.com' }] }, spec, 'mine.json');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidDataSetError);
    const { message, problems } = error as InvalidDataSetError;
    expect(problems).toHaveLength(2);
    expect(message).toMatch(
      /^mine\.json is not a valid data set \(2 problems; format: docs\/data-format\.md\):/,
    );
    expect(message).toContain('  /users/0/id: must be >= 1');
    expect(message).toContain('  /users: holds no ADMIN who is not BLOCKED');
  });

  it('builds the store’s data set: hashed passwords, role ids, counters at the highest ids', async () => {
    const passwords = createWebCryptoPasswordHasher(1000);
    const seed = dataSetSeed(await shop(), spec);
    const dataset = await buildDataSet(seed.data, { passwords, now });
    expect(dataset.createdAt).toBe(now.toISOString());
    expect(dataset.counters).toEqual({ users: 4, orders: 3, orderItems: 4 });
    expect(dataset.users['1']?.roleIds).toEqual([1, 2]);
    expect(dataset.users['3']?.passwordHash).toBeNull();
    const hash = dataset.users['1']?.passwordHash as string;
    expect(hash).not.toContain('olivia-shop-password');
    expect(await passwords.verify('olivia-shop-password', hash)).toBe(true);
    expect(dataset.orders['2']).toMatchObject({ userId: 2, status: 'PENDING' });
    expect(dataset.orderItems['4']).toEqual({
      id: 4,
      orderId: 3,
      product: 'Wireless mouse',
      quantity: 2,
    });
    expect(dataset.refreshTokens).toEqual({});
  });
});
