import { describe, expect, it } from 'vitest';
import { blockUser, resetData, unblockUser } from './admin-service.js';
import { buildDemoDataset } from './demo-data.js';
import { createUserOrder } from './orders-service.js';
import { ADMIN_ROLE_ID, USER_ROLE_ID } from './role-ids.js';
import { expectNoWrite, expectProblem } from '../../test/support/domain/expect-problem.js';
import {
  ADMIN_PRINCIPAL,
  createTestContext,
  fakePasswordHasher,
} from '../../test/support/domain/test-context.js';
import { SEED_TIME, testDataset, userRecord } from '../../test/support/domain/test-dataset.js';
import { createUser, replaceUser } from './users-service.js';

const setup = () => createTestContext(testDataset());

describe('blockUser', () => {
  it.each([
    ['ACTIVE', 2],
    ['INACTIVE', 3],
  ])('%s -> BLOCKED, spending the user’s refresh tokens', async (_case, id) => {
    const { ctx, store, clock } = setup();
    const before = structuredClone(store.data.refreshTokens);
    const now = clock.advance(1000);
    expect(await blockUser(ctx, id)).toMatchObject({ id, status: 'BLOCKED', updatedAt: now });
    for (const token of Object.values(store.data.refreshTokens)) {
      if (token.userId !== id) expect(token).toEqual(before[token.hash]);
    }
    if (id === 2) {
      expect(store.data.refreshTokens['t2']?.spentAt).toBe(now);
      // A token spent earlier keeps its own time: it tells when the rotation happened.
      expect(store.data.refreshTokens['t2-spent']?.spentAt).toBe(SEED_TIME);
    }
  });

  it('already BLOCKED: no change, nothing written', async () => {
    const tc = setup();
    tc.clock.advance(1000);
    const user = await expectNoWrite(tc, () => blockUser(tc.ctx, 4));
    expect(user.updatedAt).toBe(SEED_TIME);
  });

  it.each([
    ['the last ADMIN', 1, 'conflict'],
    ['an absent user', 9, 'not-found'],
  ] as const)('refuses %s', async (_case, id, slug) => {
    const tc = setup();
    await expectProblem(tc, () => blockUser(tc.ctx, id), slug);
  });

  it('blocks an ADMIN while another remains, then not the remaining one', async () => {
    const data = testDataset();
    data.users['2'] = userRecord(2, { roleIds: [USER_ROLE_ID, ADMIN_ROLE_ID] });
    const tc = createTestContext(data);
    await blockUser(tc.ctx, 1);
    await expectProblem(tc, () => blockUser(tc.ctx, 2), 'conflict');
  });

  it('a BLOCKED user cannot place orders until unblocked', async () => {
    const { ctx } = setup();
    await blockUser(ctx, 2);
    await expect(createUserOrder(ctx, 2, { product: 'X', categoryId: 1 })).rejects.toMatchObject({
      slug: 'conflict',
    });
    await unblockUser(ctx, 2);
    await expect(createUserOrder(ctx, 2, { product: 'X', categoryId: 1 })).resolves.toBeDefined();
  });
});

describe('unblockUser', () => {
  it('BLOCKED -> INACTIVE', async () => {
    const { ctx, clock } = setup();
    const now = clock.advance(1000);
    expect(await unblockUser(ctx, 4)).toMatchObject({ status: 'INACTIVE', updatedAt: now });
  });

  it.each([
    ['ACTIVE (never demoted)', 2, 'ACTIVE'],
    ['INACTIVE', 3, 'INACTIVE'],
  ])('%s: no change, nothing written', async (_case, id, status) => {
    const tc = setup();
    tc.clock.advance(1000);
    const user = await expectNoWrite(tc, () => unblockUser(tc.ctx, id));
    expect(user).toMatchObject({ status, updatedAt: SEED_TIME });
  });

  it('404 for an absent user', async () => {
    const tc = setup();
    await expectProblem(tc, () => unblockUser(tc.ctx, 9), 'not-found');
  });
});

describe('resetData', () => {
  it('restores the demo data, clears tokens and idempotency, dates the data set now', async () => {
    const { ctx, store, clock } = setup();
    clock.advance(3_600_000);
    await resetData(ctx);
    const demo = await buildDemoDataset({
      passwords: fakePasswordHasher(),
      demoPasswords: ctx.config.demoPasswords,
      now: clock.now(),
    });
    expect(store.data).toEqual({
      ...demo,
      // Counters of the small test data set are below the demo's, so the demo's win.
      counters: demo.counters,
    });
    expect(store.data.createdAt).toBe(clock.iso());
    expect(store.data.refreshTokens).toEqual({});
    expect(store.data.idempotency).toEqual({});
  });

  it('keeps counters that are ahead of the demo data, so ids are never reused', async () => {
    const { ctx, store } = setup();
    await replaceUser(ctx, ADMIN_PRINCIPAL, 100, { name: 'H', email: 'h@example.com' });
    store.data.counters.orders = 500;
    store.data.counters.orderItems = 900;
    await resetData(ctx);
    expect(store.data.counters).toEqual({ users: 100, orders: 500, orderItems: 900 });
    expect(store.data.users['100']).toBeUndefined();
    expect((await createUser(ctx, { name: 'N', email: 'n@example.com' })).id).toBe(101);
    expect((await createUserOrder(ctx, 2, { product: 'X', categoryId: 1 })).id).toBe(501);
  });

  it('keeps the demo’s counters when the store is behind them', async () => {
    const { ctx, store } = setup();
    await resetData(ctx);
    const users = Object.keys(store.data.users).length;
    const orders = Object.keys(store.data.orders).length;
    const items = Object.keys(store.data.orderItems).length;
    expect(store.data.counters).toEqual({ users, orders, orderItems: items });
  });
});
