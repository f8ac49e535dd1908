import { describe, expect, it } from 'vitest';
import { ADMIN_ROLE_ID, USER_ROLE_ID } from './role-ids.js';
import { assignUserRole, listRoles, listUserRoles, removeUserRole } from './roles.js';
import { expectNoWrite, expectProblem } from '../../test/support/domain/expect-problem.js';
import { createTestContext } from '../../test/support/domain/test-context.js';
import { SEED_TIME, testDataset, userRecord } from '../../test/support/domain/test-dataset.js';

const USER = { id: 1, name: 'USER' };
const ADMIN = { id: 2, name: 'ADMIN' };

describe('roles', () => {
  it('lists the catalog, dated with the data set', async () => {
    const { ctx } = createTestContext(testDataset());
    expect(await listRoles(ctx)).toEqual({ body: [USER, ADMIN], lastModified: SEED_TIME });
  });

  it('lists the roles a user holds, by id', async () => {
    const { ctx } = createTestContext(testDataset());
    expect(await listUserRoles(ctx, 1)).toEqual([USER, ADMIN]);
    expect(await listUserRoles(ctx, 2)).toEqual([USER]);
  });

  it('404 for the roles of an absent user', async () => {
    const tc = createTestContext(testDataset());
    await expectProblem(tc, () => listUserRoles(tc.ctx, 9), 'not-found');
  });

  it('assigns ADMIN without touching updatedAt, and again as a no-op', async () => {
    const tc = createTestContext(testDataset());
    tc.clock.advance(60_000);
    await assignUserRole(tc.ctx, 2, ADMIN_ROLE_ID);
    expect(await listUserRoles(tc.ctx, 2)).toEqual([USER, ADMIN]);
    expect(tc.store.data.users['2']?.updatedAt).toBe(SEED_TIME);
    await expectNoWrite(tc, () => assignUserRole(tc.ctx, 2, ADMIN_ROLE_ID));
    await expectNoWrite(tc, () => assignUserRole(tc.ctx, 2, USER_ROLE_ID));
  });

  it.each([
    ['unknown user', 9, ADMIN_ROLE_ID],
    ['unknown role', 2, 3],
  ])('assign: %s is 404', async (_case, userId, roleId) => {
    const tc = createTestContext(testDataset());
    await expectProblem(tc, () => assignUserRole(tc.ctx, userId, roleId), 'not-found');
  });

  it('removes ADMIN when another ADMIN remains', async () => {
    const data = testDataset();
    data.users['2'] = userRecord(2, { roleIds: [USER_ROLE_ID, ADMIN_ROLE_ID] });
    const tc = createTestContext(data);
    await removeUserRole(tc.ctx, 1, ADMIN_ROLE_ID);
    expect(await listUserRoles(tc.ctx, 1)).toEqual([USER]);
    expect(tc.store.data.users['1']?.updatedAt).toBe(SEED_TIME);
  });

  it.each([
    ['unknown user', 9, ADMIN_ROLE_ID, 'not-found', 'User 9 does not exist.'],
    ['unknown role', 1, 7, 'not-found', 'Role 7 does not exist.'],
    ['a role not held', 2, ADMIN_ROLE_ID, 'not-found', 'User 2 does not hold the role ADMIN.'],
    [
      'the USER role',
      2,
      USER_ROLE_ID,
      'conflict',
      'Every user holds the USER role; it cannot be removed.',
    ],
    ['ADMIN from the last ADMIN', 1, ADMIN_ROLE_ID, 'conflict', 'User 1 is the last ADMIN.'],
  ] as const)('remove: %s', async (_case, userId, roleId, slug, detail) => {
    const tc = createTestContext(testDataset());
    const problem = await expectProblem(tc, () => removeUserRole(tc.ctx, userId, roleId), slug);
    expect(problem.detail).toBe(detail);
  });

  it('a BLOCKED second admin does not save the last unblocked one', async () => {
    const data = testDataset();
    data.users['4'] = userRecord(4, { status: 'BLOCKED', roleIds: [USER_ROLE_ID, ADMIN_ROLE_ID] });
    const tc = createTestContext(data);
    await expectProblem(tc, () => removeUserRole(tc.ctx, 1, ADMIN_ROLE_ID), 'conflict');
    // ...while the BLOCKED one may be demoted: it cannot act as ADMIN anyway.
    await removeUserRole(tc.ctx, 4, ADMIN_ROLE_ID);
    expect(await listUserRoles(tc.ctx, 4)).toEqual([USER]);
  });
});
