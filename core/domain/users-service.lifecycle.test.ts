import { describe, expect, it } from 'vitest';
import { ADMIN_ROLE_ID, USER_ROLE_ID } from './role-ids.js';
import { expectNoWrite, expectProblem } from '../../test/support/domain/expect-problem.js';
import {
  ADMIN_PRINCIPAL,
  createTestContext,
  USER_PRINCIPAL,
} from '../../test/support/domain/test-context.js';
import { SEED_TIME, testDataset, userRecord } from '../../test/support/domain/test-dataset.js';
import { activateUser, createUser, deleteUser, getUser } from './users-service.js';

const setup = () => createTestContext(testDataset());

describe('deleteUser', () => {
  it('cascades to orders, their items and refresh tokens; idempotency records stay', async () => {
    const { ctx, store } = setup();
    await deleteUser(ctx, USER_PRINCIPAL, 2);
    expect(store.data.users['2']).toBeUndefined();
    expect(Object.keys(store.data.orders)).toEqual(['3', '4', '5']);
    expect(store.data.orderItems).toEqual({});
    expect(Object.keys(store.data.refreshTokens)).toEqual(['t1']);
    expect(Object.keys(store.data.idempotency)).toEqual(['scope-1']);
  });

  it('leaves other users’ orders and items alone', async () => {
    const { ctx, store } = setup();
    await deleteUser(ctx, USER_PRINCIPAL, 3);
    expect(Object.keys(store.data.orders)).toEqual(['1', '2']);
    expect(Object.keys(store.data.orderItems)).toEqual(['1', '2', '3']);
  });

  it('a second delete is 404', async () => {
    const tc = setup();
    await deleteUser(tc.ctx, USER_PRINCIPAL, 3);
    await expectProblem(tc, () => deleteUser(tc.ctx, USER_PRINCIPAL, 3), 'not-found');
  });

  it('never reuses the id of a deleted user', async () => {
    const { ctx } = setup();
    await deleteUser(ctx, USER_PRINCIPAL, 4);
    expect((await createUser(ctx, { name: 'N', email: 'n@example.com' })).id).toBe(5);
    await deleteUser(ctx, USER_PRINCIPAL, 5);
    expect((await createUser(ctx, { name: 'N', email: 'n@example.com' })).id).toBe(6);
  });

  it.each([
    ['an ADMIN target by a non-ADMIN', USER_PRINCIPAL, 'forbidden'],
    ['the last ADMIN', ADMIN_PRINCIPAL, 'conflict'],
  ] as const)('refuses %s', async (_case, principal, slug) => {
    const tc = setup();
    await expectProblem(tc, () => deleteUser(tc.ctx, principal, 1), slug);
  });

  it('deletes an ADMIN while another unblocked ADMIN remains', async () => {
    const data = testDataset();
    data.users['3'] = userRecord(3, { status: 'INACTIVE', roleIds: [USER_ROLE_ID, ADMIN_ROLE_ID] });
    const { ctx, store } = createTestContext(data);
    await deleteUser(ctx, ADMIN_PRINCIPAL, 1);
    expect(store.data.users['1']).toBeUndefined();
    // Now user 3 is the last one.
    await expect(deleteUser(ctx, ADMIN_PRINCIPAL, 3)).rejects.toMatchObject({ slug: 'conflict' });
  });

  it('a BLOCKED ADMIN may be deleted, and does not count as another ADMIN', async () => {
    const data = testDataset();
    data.users['4'] = userRecord(4, { status: 'BLOCKED', roleIds: [USER_ROLE_ID, ADMIN_ROLE_ID] });
    const tc = createTestContext(data);
    await expectProblem(tc, () => deleteUser(tc.ctx, ADMIN_PRINCIPAL, 1), 'conflict');
    await deleteUser(tc.ctx, ADMIN_PRINCIPAL, 4);
    expect(tc.store.data.users['4']).toBeUndefined();
  });
});

describe('activateUser', () => {
  it('INACTIVE -> ACTIVE, bumping updatedAt', async () => {
    const { ctx, clock } = setup();
    const now = clock.advance(1000);
    expect(await activateUser(ctx, USER_PRINCIPAL, 3)).toMatchObject({
      id: 3,
      status: 'ACTIVE',
      updatedAt: now,
    });
    expect((await getUser(ctx, 3)).lastModified).toBe(now);
  });

  it('ACTIVE: no change, nothing written', async () => {
    const tc = setup();
    tc.clock.advance(1000);
    const user = await expectNoWrite(tc, () => activateUser(tc.ctx, USER_PRINCIPAL, 2));
    expect(user).toMatchObject({ status: 'ACTIVE', updatedAt: SEED_TIME });
  });

  it('an ADMIN target needs ADMIN, even when it would be a no-op', async () => {
    const data = testDataset();
    data.users['3'] = userRecord(3, { status: 'INACTIVE', roleIds: [USER_ROLE_ID, ADMIN_ROLE_ID] });
    const tc = createTestContext(data);
    await expectProblem(tc, () => activateUser(tc.ctx, USER_PRINCIPAL, 3), 'forbidden');
    await expectProblem(tc, () => activateUser(tc.ctx, USER_PRINCIPAL, 1), 'forbidden');
    expect(await activateUser(tc.ctx, ADMIN_PRINCIPAL, 3)).toMatchObject({ status: 'ACTIVE' });
  });

  it.each([
    ['BLOCKED', 4, 'invalid-state-transition', 'User 4 is BLOCKED and cannot be activated.'],
    ['absent', 9, 'not-found', 'User 9 does not exist.'],
  ] as const)('%s is refused', async (_case, id, slug, detail) => {
    const tc = setup();
    const problem = await expectProblem(tc, () => activateUser(tc.ctx, USER_PRINCIPAL, id), slug);
    expect(problem.detail).toBe(detail);
  });
});
