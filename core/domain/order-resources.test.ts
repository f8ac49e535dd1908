import { describe, expect, it } from 'vitest';
import { cancelOrder, getOrder, getOrderItem } from './order-resources.js';
import { updateUserOrder } from './orders-service.js';
import { expectNoWrite, expectProblem } from '../../test/support/domain/expect-problem.js';
import { createTestContext, USER_PRINCIPAL } from '../../test/support/domain/test-context.js';
import { SEED_TIME, testDataset } from '../../test/support/domain/test-dataset.js';
import { updateUser } from './users-service.js';

const setup = () => createTestContext(testDataset());

describe('getOrder', () => {
  const base = {
    id: 1,
    product: 'Product 1',
    userId: 2,
    categoryId: 1,
    status: 'PENDING',
    createdAt: SEED_TIME,
    updatedAt: SEED_TIME,
  };
  const items = [
    { id: 1, orderId: 1, product: 'Pen', quantity: 2 },
    { id: 2, orderId: 1, product: 'Ink', quantity: 1 },
  ];

  it.each([
    ['nothing', [], base],
    ['user', ['user'], { ...base, user: { id: 2, name: 'Bob' } }],
    ['items', ['items'], { ...base, items }],
    ['both', ['user', 'items'], { ...base, user: { id: 2, name: 'Bob' }, items }],
  ] as const)('expands %s', async (_case, expand, body) => {
    const { ctx } = setup();
    expect((await getOrder(ctx, 1, [...expand])).body).toEqual(body);
  });

  it('an order without items expands to []', async () => {
    const { ctx } = setup();
    expect((await getOrder(ctx, 3, ['items'])).body.items).toEqual([]);
  });

  it('is dated by the newest of the order and, when expanded, its user', async () => {
    const { ctx, clock } = setup();
    const userTime = clock.advance(60_000);
    await updateUser(ctx, USER_PRINCIPAL, 2, { name: 'Bobby' });
    expect((await getOrder(ctx, 1, [])).lastModified).toBe(SEED_TIME);
    expect((await getOrder(ctx, 1, ['items'])).lastModified).toBe(SEED_TIME);
    expect((await getOrder(ctx, 1, ['user'])).lastModified).toBe(userTime);
    const orderTime = clock.advance(60_000);
    await updateUserOrder(ctx, 2, 1, { status: 'PAID' });
    expect((await getOrder(ctx, 1, ['user', 'items'])).lastModified).toBe(orderTime);
  });

  it('404 for an absent order', async () => {
    const tc = setup();
    const problem = await expectProblem(tc, () => getOrder(tc.ctx, 99, []), 'not-found');
    expect(problem.detail).toBe('Order 99 does not exist.');
  });
});

describe('cancelOrder', () => {
  it.each([1, 2])('order %i (PENDING or PAID) -> CANCELLED', async (id) => {
    const { ctx, clock } = setup();
    const now = clock.advance(1000);
    expect(await cancelOrder(ctx, id)).toMatchObject({ id, status: 'CANCELLED', updatedAt: now });
  });

  it('already CANCELLED: no change, nothing written', async () => {
    const tc = setup();
    tc.clock.advance(1000);
    const order = await expectNoWrite(tc, () => cancelOrder(tc.ctx, 5));
    expect(order).toMatchObject({ status: 'CANCELLED', updatedAt: SEED_TIME });
  });

  it.each([
    ['SHIPPED', 3, 'invalid-state-transition'],
    ['DELIVERED', 4, 'invalid-state-transition'],
    ['absent', 99, 'not-found'],
  ] as const)('%s is refused', async (_case, id, slug) => {
    const tc = setup();
    await expectProblem(tc, () => cancelOrder(tc.ctx, id), slug);
  });
});

describe('getOrderItem', () => {
  it('takes its order’s modification time', async () => {
    const { ctx, clock } = setup();
    expect(await getOrderItem(ctx, 3)).toEqual({
      body: { id: 3, orderId: 2, product: 'Pad', quantity: 5 },
      lastModified: SEED_TIME,
    });
    const now = clock.advance(1000);
    await cancelOrder(ctx, 2);
    expect((await getOrderItem(ctx, 3)).lastModified).toBe(now);
  });

  it('404 for an absent item', async () => {
    const tc = setup();
    const problem = await expectProblem(tc, () => getOrderItem(tc.ctx, 99), 'not-found');
    expect(problem.detail).toBe('Order item 99 does not exist.');
  });
});
