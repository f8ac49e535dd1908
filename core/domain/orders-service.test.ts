import { describe, expect, it } from 'vitest';
import {
  createUserOrder,
  deleteUserOrder,
  getUserOrder,
  listUserOrders,
  replaceUserOrder,
  updateUserOrder,
} from './orders-service.js';
import { expectNoWrite, expectProblem } from '../../test/support/domain/expect-problem.js';
import { createTestContext } from '../../test/support/domain/test-context.js';
import { SEED_TIME, testDataset } from '../../test/support/domain/test-dataset.js';

const setup = () => createTestContext(testDataset());

describe('listUserOrders', () => {
  it('lists a user’s orders by id, unexpanded', async () => {
    const { ctx } = setup();
    const orders = await listUserOrders(ctx, 3);
    expect(orders.map((order) => order.id)).toEqual([3, 4, 5]);
    expect(orders[0]).toEqual({
      id: 3,
      product: 'Product 3',
      userId: 3,
      categoryId: 2,
      status: 'SHIPPED',
      createdAt: SEED_TIME,
      updatedAt: SEED_TIME,
    });
  });

  it('filters by status', async () => {
    const { ctx } = setup();
    expect((await listUserOrders(ctx, 3, 'DELIVERED')).map((order) => order.id)).toEqual([4]);
    expect(await listUserOrders(ctx, 3, 'PENDING')).toEqual([]);
    expect(await listUserOrders(ctx, 1)).toEqual([]);
  });

  it('404 for an absent user', async () => {
    const tc = setup();
    await expectProblem(tc, () => listUserOrders(tc.ctx, 9), 'not-found');
  });
});

describe('createUserOrder', () => {
  it('creates a PENDING order with items numbered from the items counter', async () => {
    const { ctx, store, clock } = setup();
    const order = await createUserOrder(ctx, 3, {
      product: 'Desk',
      categoryId: 4,
      items: [
        { product: 'Desk', quantity: 1 },
        { product: 'Screws', quantity: 20 },
      ],
    });
    expect(order).toEqual({
      id: 6,
      product: 'Desk',
      userId: 3,
      categoryId: 4,
      status: 'PENDING',
      createdAt: clock.iso(),
      updatedAt: clock.iso(),
    });
    expect(store.data.orderItems['4']).toEqual({ id: 4, orderId: 6, product: 'Desk', quantity: 1 });
    expect(store.data.orderItems['5']).toEqual({
      id: 5,
      orderId: 6,
      product: 'Screws',
      quantity: 20,
    });
    expect(store.data.counters).toMatchObject({ orders: 6, orderItems: 5 });
  });

  it('items are optional', async () => {
    const { ctx, store } = setup();
    await createUserOrder(ctx, 2, { product: 'Book', categoryId: 1 });
    expect(Object.keys(store.data.orderItems)).toHaveLength(3);
  });

  it.each([
    ['absent user (before the category)', 9, 99, 'not-found'],
    ['BLOCKED user (before the category)', 4, 99, 'conflict'],
    ['unknown category', 2, 99, 'unknown-reference'],
    ['category 0', 2, 0, 'unknown-reference'],
  ] as const)('refuses %s', async (_case, userId, categoryId, slug) => {
    const tc = setup();
    const problem = await expectProblem(
      tc,
      () =>
        createUserOrder(tc.ctx, userId, {
          product: 'X',
          categoryId,
          items: [{ product: 'X', quantity: 1 }],
        }),
      slug,
    );
    if (slug === 'unknown-reference')
      expect(problem.detail).toBe(`Category ${categoryId} does not exist.`);
  });

  it('never reuses an order or item id', async () => {
    const tc = setup();
    const { ctx } = tc;
    const first = await createUserOrder(ctx, 2, {
      product: 'A',
      categoryId: 1,
      items: [{ product: 'A', quantity: 1 }],
    });
    await deleteUserOrder(ctx, 2, first.id);
    const second = await createUserOrder(ctx, 2, {
      product: 'B',
      categoryId: 1,
      items: [{ product: 'B', quantity: 1 }],
    });
    expect([first.id, second.id]).toEqual([6, 7]);
    expect(tc.store.data.orderItems['5']).toMatchObject({ orderId: 7 });
  });
});

describe('getUserOrder', () => {
  it('gets an order by both ids with its modification time', async () => {
    const { ctx } = setup();
    expect(await getUserOrder(ctx, 2, 1)).toEqual({
      body: expect.objectContaining({ id: 1, userId: 2, status: 'PENDING' }),
      lastModified: SEED_TIME,
    });
  });

  it.each([
    ['absent user', 9, 1, 'User 9 does not exist.'],
    ['absent order', 2, 99, 'Order 99 of user 2 does not exist.'],
    ['an order of another user', 2, 3, 'Order 3 of user 2 does not exist.'],
  ])('404 for %s', async (_case, userId, orderId, detail) => {
    const tc = setup();
    const problem = await expectProblem(
      tc,
      () => getUserOrder(tc.ctx, userId, orderId),
      'not-found',
    );
    expect(problem.detail).toBe(detail);
  });
});

describe('replaceUserOrder', () => {
  it('replaces product, category and items of a PENDING order; read-only fields ignored', async () => {
    const { ctx, store, clock } = setup();
    const now = clock.advance(1000);
    const order = await replaceUserOrder(ctx, 2, 1, {
      product: 'Notebook',
      categoryId: 3,
      items: [{ product: 'Notebook', quantity: 3 }],
      id: 50,
      userId: 3,
      status: 'DELIVERED',
      createdAt: now,
      updatedAt: now,
      user: { id: 3, name: 'Cy' },
    });
    expect(order).toEqual({
      id: 1,
      product: 'Notebook',
      userId: 2,
      categoryId: 3,
      status: 'PENDING',
      createdAt: SEED_TIME,
      updatedAt: now,
    });
    expect(store.data.orderItems['1']).toBeUndefined();
    expect(store.data.orderItems['2']).toBeUndefined();
    expect(store.data.orderItems['4']).toEqual({
      id: 4,
      orderId: 1,
      product: 'Notebook',
      quantity: 3,
    });
    expect(store.data.orderItems['3']).toMatchObject({ orderId: 2 });
  });

  it('items not sent become none', async () => {
    const { ctx, store } = setup();
    await replaceUserOrder(ctx, 2, 1, { product: 'P', categoryId: 1 });
    expect(Object.values(store.data.orderItems).filter((item) => item.orderId === 1)).toEqual([]);
  });

  it.each([
    ['absent user', 9, 1, 1, 'not-found'],
    ['absent order (PUT never creates)', 2, 99, 1, 'not-found'],
    ['order of another user', 3, 1, 1, 'not-found'],
    ['a PAID order', 2, 2, 1, 'conflict'],
    ['a SHIPPED order, unknown category too', 3, 3, 99, 'conflict'],
    ['unknown category', 2, 1, 99, 'unknown-reference'],
  ] as const)('refuses %s', async (_case, userId, orderId, categoryId, slug) => {
    const tc = setup();
    await expectProblem(
      tc,
      () => replaceUserOrder(tc.ctx, userId, orderId, { product: 'P', categoryId, items: [] }),
      slug,
    );
  });
});

describe('updateUserOrder', () => {
  it.each([
    ['PENDING', 1, 2, 'PAID'],
    ['PENDING', 1, 2, 'CANCELLED'],
    ['PAID', 2, 2, 'SHIPPED'],
    ['PAID', 2, 2, 'CANCELLED'],
    ['SHIPPED', 3, 3, 'DELIVERED'],
  ] as const)('%s -> %s', async (_from, orderId, userId, to) => {
    const { ctx, clock } = setup();
    const now = clock.advance(1000);
    expect(await updateUserOrder(ctx, userId, orderId, { status: to })).toMatchObject({
      status: to,
      updatedAt: now,
    });
  });

  it('patches product and category of a PENDING order, with a status change judged before it', async () => {
    const { ctx } = setup();
    const order = await updateUserOrder(ctx, 2, 1, {
      status: 'PAID',
      product: 'Quill',
      categoryId: 5,
    });
    expect(order).toMatchObject({ status: 'PAID', product: 'Quill', categoryId: 5 });
  });

  it.each([
    ['{}', 1, {}],
    ['read-only fields only', 1, { id: 9, userId: 3, createdAt: SEED_TIME }],
    ['the current status', 2, { status: 'PAID' as const }],
    ['current product and category of a PAID order', 2, { product: 'Product 2', categoryId: 1 }],
  ])('%s writes nothing', async (_case, orderId, patch) => {
    const tc = setup();
    tc.clock.advance(1000);
    const order = await expectNoWrite(tc, () => updateUserOrder(tc.ctx, 2, orderId, patch));
    expect(order.updatedAt).toBe(SEED_TIME);
  });

  it.each([
    ['absent order', 2, 99, { status: 'PAID' }, 'not-found', undefined],
    ['order of another user', 2, 3, { status: 'DELIVERED' }, 'not-found', undefined],
    [
      'DELIVERED -> CANCELLED',
      3,
      4,
      { status: 'CANCELLED' },
      'invalid-state-transition',
      'Order 4 cannot go from DELIVERED to CANCELLED.',
    ],
    [
      'PENDING -> SHIPPED',
      2,
      1,
      { status: 'SHIPPED' },
      'invalid-state-transition',
      'Order 1 cannot go from PENDING to SHIPPED.',
    ],
    ['CANCELLED -> PENDING', 3, 5, { status: 'PENDING' }, 'invalid-state-transition', undefined],
    [
      'product of a PAID order',
      2,
      2,
      { product: 'New' },
      'conflict',
      'Order 2 is PAID; only a PENDING order can be changed this way.',
    ],
    ['category of a SHIPPED order', 3, 3, { categoryId: 1 }, 'conflict', undefined],
    [
      'status and product of a PAID order (judged on the state before)',
      2,
      2,
      { status: 'SHIPPED', product: 'New' },
      'conflict',
      undefined,
    ],
    [
      'unknown category',
      2,
      1,
      { categoryId: 42 },
      'unknown-reference',
      'Category 42 does not exist.',
    ],
    [
      'valid status with unknown category: all or nothing',
      2,
      1,
      { status: 'PAID', categoryId: 42 },
      'unknown-reference',
      undefined,
    ],
  ] as const)('refuses %s', async (_case, userId, orderId, patch, slug, detail) => {
    const tc = setup();
    const problem = await expectProblem(
      tc,
      () => updateUserOrder(tc.ctx, userId, orderId, patch),
      slug,
    );
    if (detail) expect(problem.detail).toBe(detail);
  });
});

describe('deleteUserOrder', () => {
  it.each([
    [2, 1],
    [2, 2],
    [3, 3],
    [3, 4],
    [3, 5],
  ])('user %i deletes order %i in any status, with its items', async (userId, orderId) => {
    const { ctx, store } = setup();
    await deleteUserOrder(ctx, userId, orderId);
    expect(store.data.orders[String(orderId)]).toBeUndefined();
    expect(Object.values(store.data.orderItems).some((item) => item.orderId === orderId)).toBe(
      false,
    );
  });

  it('keeps the items of other orders', async () => {
    const { ctx, store } = setup();
    await deleteUserOrder(ctx, 2, 1);
    expect(Object.keys(store.data.orderItems)).toEqual(['3']);
  });

  it.each([
    ['a second delete', 2, 1],
    ['order of another user', 3, 1],
    ['absent user', 9, 1],
  ])('404 for %s', async (_case, userId, orderId) => {
    const tc = setup();
    if (_case === 'a second delete') await deleteUserOrder(tc.ctx, userId, orderId);
    await expectProblem(tc, () => deleteUserOrder(tc.ctx, userId, orderId), 'not-found');
  });
});
