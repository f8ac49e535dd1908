import { describe, expect, it } from 'vitest';
import { resetData } from './admin-service.js';
import { buildDemoDataset } from './demo-data.js';
import { buildSeedDataset } from './seed-dataset.js';
import { createTestContext, fakePasswordHasher } from '../../test/support/domain/test-context.js';
import { testDataset } from '../../test/support/domain/test-dataset.js';

const options = {
  passwords: fakePasswordHasher(),
  demoPasswords: { admin: 'a', user: 'u' },
  now: new Date('2026-11-01T00:00:00.000Z'),
};

describe('buildSeedDataset', () => {
  it('demo is the demo data set', async () => {
    expect(await buildSeedDataset('demo', options)).toEqual(await buildDemoDataset(options));
  });

  it('empty keeps only the two login accounts', async () => {
    const seed = await buildSeedDataset('empty', options);
    expect(Object.keys(seed.users)).toEqual(['1', '2']);
    expect(seed.users['1']?.email).toBe('admin@example.com');
    expect([seed.orders, seed.orderItems]).toEqual([{}, {}]);
    expect(seed.counters).toEqual({ users: 2, orders: 0, orderItems: 0 });
    expect(seed.createdAt).toBe(options.now.toISOString());
  });

  it('a reset to the empty seed keeps counters too', async () => {
    const { ctx, store } = createTestContext(testDataset());
    await resetData(ctx, 'empty');
    expect(Object.keys(store.data.users)).toEqual(['1', '2']);
    expect(store.data.counters).toEqual({ users: 4, orders: 5, orderItems: 3 });
  });
});
