import { describe, expect, it } from 'vitest';
import { USER_ROLE_ID } from './role-ids.js';
import { expectNoWrite, expectProblem } from '../../test/support/domain/expect-problem.js';
import {
  ADMIN_PRINCIPAL,
  createTestContext,
  TEST_EPOCH,
  USER_PRINCIPAL,
} from '../../test/support/domain/test-context.js';
import { SEED_TIME, testDataset } from '../../test/support/domain/test-dataset.js';
import { createUser, getUser, replaceUser, toUserDto, updateUser } from './users-service.js';

const setup = () => createTestContext(testDataset());

describe('toUserDto and getUser', () => {
  it('never leaks the password hash or role ids', async () => {
    const { store } = setup();
    const record = { ...store.data.users['1']!, passwordHash: 'secret' };
    const dto = toUserDto(record);
    expect(dto).toEqual({
      id: 1,
      name: 'Ada',
      email: 'ada@example.com',
      age: 30,
      status: 'ACTIVE',
      createdAt: SEED_TIME,
      updatedAt: SEED_TIME,
    });
    expect(JSON.stringify(dto)).not.toContain('secret');
  });

  it('gets a user with its modification time', async () => {
    const { ctx } = setup();
    expect(await getUser(ctx, 3)).toEqual({
      body: expect.objectContaining({ id: 3, age: null, status: 'INACTIVE' }),
      lastModified: SEED_TIME,
    });
  });

  it('404 names the id', async () => {
    const tc = setup();
    const problem = await expectProblem(tc, () => getUser(tc.ctx, 42), 'not-found');
    expect(problem.detail).toBe('User 42 does not exist.');
  });
});

describe('createUser', () => {
  it('creates an INACTIVE user holding USER, without a password, at the next id', async () => {
    const { ctx, store } = setup();
    const user = await createUser(ctx, {
      name: ' Grace  H. ',
      email: 'Grace@Example.com',
      age: 45,
    });
    expect(user).toEqual({
      id: 5,
      name: ' Grace  H. ',
      email: 'Grace@Example.com',
      age: 45,
      status: 'INACTIVE',
      createdAt: TEST_EPOCH,
      updatedAt: TEST_EPOCH,
    });
    expect(store.data.users['5']).toMatchObject({ roleIds: [USER_ROLE_ID], passwordHash: null });
    expect(store.data.counters.users).toBe(5);
  });

  it('age absent -> null', async () => {
    const { ctx } = setup();
    expect((await createUser(ctx, { name: 'N', email: 'n@example.com' })).age).toBeNull();
  });

  it.each(['bob@example.com', 'BOB@example.COM'])('409 duplicate-email for %s', async (email) => {
    const tc = setup();
    const problem = await expectProblem(
      tc,
      () => createUser(tc.ctx, { name: 'X', email }),
      'duplicate-email',
    );
    expect(problem.detail).toContain(email);
  });
});

describe('replaceUser', () => {
  it('replaces name, email and age; status, createdAt stay; read-only fields are ignored', async () => {
    const { ctx, clock } = setup();
    const now = clock.advance(1000);
    const result = await replaceUser(ctx, USER_PRINCIPAL, 3, {
      name: 'Cyrus',
      email: 'cyrus@example.com',
      age: 50,
      id: 99,
      status: 'ACTIVE',
      createdAt: '2000-01-01T00:00:00.000Z',
      updatedAt: '2000-01-01T00:00:00.000Z',
    });
    expect(result).toEqual({
      created: false,
      user: {
        id: 3,
        name: 'Cyrus',
        email: 'cyrus@example.com',
        age: 50,
        status: 'INACTIVE',
        createdAt: SEED_TIME,
        updatedAt: now,
      },
    });
  });

  it.each([undefined, null])('age %s -> null', async (age) => {
    const { ctx } = setup();
    const { user } = await replaceUser(ctx, USER_PRINCIPAL, 2, {
      name: 'Bob',
      email: 'bob@example.com',
      age,
    });
    expect(user.age).toBeNull();
  });

  it('an identical replacement writes nothing', async () => {
    const tc = setup();
    tc.clock.advance(1000);
    const { user } = await expectNoWrite(tc, () =>
      replaceUser(tc.ctx, USER_PRINCIPAL, 2, { name: 'Bob', email: 'bob@example.com', age: 30 }),
    );
    expect(user.updatedAt).toBe(SEED_TIME);
  });

  it('may keep or re-case its own email', async () => {
    const { ctx } = setup();
    const { user } = await replaceUser(ctx, USER_PRINCIPAL, 2, {
      name: 'Bob',
      email: 'BOB@example.com',
    });
    expect(user.email).toBe('BOB@example.com');
  });

  it('creates at an absent id like POST, and moves the counter past it', async () => {
    const { ctx, store, clock } = setup();
    const result = await replaceUser(ctx, USER_PRINCIPAL, 100, {
      name: 'H',
      email: 'h@example.com',
      age: 20,
    });
    expect(result).toEqual({
      created: true,
      user: {
        id: 100,
        name: 'H',
        email: 'h@example.com',
        age: 20,
        status: 'INACTIVE',
        createdAt: clock.iso(),
        updatedAt: clock.iso(),
      },
    });
    expect(store.data.users['100']).toMatchObject({ roleIds: [USER_ROLE_ID], passwordHash: null });
    expect((await createUser(ctx, { name: 'N', email: 'n@example.com' })).id).toBe(101);
  });

  it('creates at a deleted id below the counter without moving the counter back', async () => {
    const { ctx, store } = setup();
    delete store.data.users['3'];
    const { created } = await replaceUser(ctx, USER_PRINCIPAL, 3, {
      name: 'C',
      email: 'c@example.com',
    });
    expect(created).toBe(true);
    expect(store.data.counters.users).toBe(4);
  });

  it.each([
    ['ADMIN target by a non-ADMIN', USER_PRINCIPAL, 1, 'ada2@example.com', 'forbidden'],
    ['email of another user', USER_PRINCIPAL, 2, 'CY@example.com', 'duplicate-email'],
    [
      'email of another user when creating',
      USER_PRINCIPAL,
      50,
      'bob@example.com',
      'duplicate-email',
    ],
    ['ADMIN target, even with a clashing email', USER_PRINCIPAL, 1, 'bob@example.com', 'forbidden'],
  ] as const)('refuses %s', async (_case, principal, id, email, slug) => {
    const tc = setup();
    await expectProblem(tc, () => replaceUser(tc.ctx, principal, id, { name: 'X', email }), slug);
  });

  it('an ADMIN may replace an ADMIN', async () => {
    const { ctx } = setup();
    const { user } = await replaceUser(ctx, ADMIN_PRINCIPAL, 1, {
      name: 'Ada L.',
      email: 'ada@example.com',
    });
    expect(user.name).toBe('Ada L.');
  });

  it.each([0, -1, 1.5, 2 ** 53])('refuses the id %s', async (id) => {
    const tc = setup();
    await expectProblem(
      tc,
      () => replaceUser(tc.ctx, ADMIN_PRINCIPAL, id, { name: 'X', email: 'x@example.com' }),
      'validation-failed',
    );
  });
});

describe('updateUser', () => {
  it.each([
    ['name', { name: 'Robert' }, { name: 'Robert', email: 'bob@example.com', age: 30 }],
    ['email', { email: 'rob@example.com' }, { name: 'Bob', email: 'rob@example.com', age: 30 }],
    ['age', { age: 31 }, { name: 'Bob', email: 'bob@example.com', age: 31 }],
    ['age null clears', { age: null }, { name: 'Bob', email: 'bob@example.com', age: null }],
    ['several', { name: 'R', age: 19 }, { name: 'R', email: 'bob@example.com', age: 19 }],
    [
      're-cased own email',
      { email: 'Bob@example.com' },
      { name: 'Bob', email: 'Bob@example.com', age: 30 },
    ],
  ])('patches %s and bumps updatedAt', async (_case, patch, expected) => {
    const { ctx, clock } = setup();
    const now = clock.advance(5000);
    const user = await updateUser(ctx, USER_PRINCIPAL, 2, patch);
    expect(user).toEqual({
      id: 2,
      status: 'ACTIVE',
      createdAt: SEED_TIME,
      updatedAt: now,
      ...expected,
    });
    expect((await getUser(ctx, 2)).body).toEqual(user);
  });

  it.each([
    ['{}', {}],
    [
      'read-only fields only',
      { id: 7, status: 'BLOCKED' as const, createdAt: TEST_EPOCH, updatedAt: TEST_EPOCH },
    ],
    ['the current values', { name: 'Bob', email: 'bob@example.com', age: 30 }],
    ['age null on a null age', { age: null }],
  ])('%s writes nothing and keeps updatedAt', async (_case, patch) => {
    const tc = setup();
    tc.clock.advance(5000);
    const id = 'age' in patch && patch.age === null ? 3 : 2;
    const user = await expectNoWrite(tc, () => updateUser(tc.ctx, USER_PRINCIPAL, id, patch));
    expect(user.updatedAt).toBe(SEED_TIME);
  });

  it.each([
    ['absent user', USER_PRINCIPAL, 9, { name: 'X' }, 'not-found'],
    ['ADMIN target by a non-ADMIN', USER_PRINCIPAL, 1, { name: 'X' }, 'forbidden'],
    ['ADMIN target by a non-ADMIN, even {}', USER_PRINCIPAL, 1, {}, 'forbidden'],
    [
      'email of another user',
      USER_PRINCIPAL,
      2,
      { name: 'Y', email: 'DEE@example.com' },
      'duplicate-email',
    ],
  ] as const)('refuses %s, all or nothing', async (_case, principal, id, patch, slug) => {
    const tc = setup();
    await expectProblem(tc, () => updateUser(tc.ctx, principal, id, patch), slug);
  });

  it('an ADMIN may update an ADMIN', async () => {
    const { ctx } = setup();
    expect((await updateUser(ctx, ADMIN_PRINCIPAL, 1, { age: 40 })).age).toBe(40);
  });
});
