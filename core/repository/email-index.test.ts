import { describe, expect, it } from 'vitest';
import type { Dataset, UserRecord } from '../domain/dataset.js';
import { indexUserEmail, unindexUserEmail, usersWithEmail } from './email-index.js';

function user(id: number, email: string): UserRecord {
  return {
    id,
    name: `User ${id}`,
    email,
    age: null,
    status: 'ACTIVE',
    createdAt: '2030-01-01T00:00:00.000Z',
    updatedAt: '2030-01-01T00:00:00.000Z',
    roleIds: [1],
    passwordHash: null,
  };
}

function dataset(...users: UserRecord[]): Dataset {
  return {
    schemaVersion: 1,
    createdAt: '2030-01-01T00:00:00.000Z',
    counters: { users: users.length, orders: 0, orderItems: 0 },
    users: Object.fromEntries(users.map((u) => [String(u.id), u])),
    orders: {},
    orderItems: {},
    refreshTokens: {},
    idempotency: {},
  };
}

const ids = (found: UserRecord[]) => found.map((u) => u.id);

describe('usersWithEmail', () => {
  it('finds users case-insensitively, lowest id first', () => {
    const data = dataset(user(2, 'Ada@Example.com'), user(1, 'ada@example.com'), user(3, 'b@x.io'));
    expect(ids(usersWithEmail(data, 'ADA@example.COM'))).toEqual([1, 2]);
    expect(ids(usersWithEmail(data, 'b@x.io'))).toEqual([3]);
    expect(usersWithEmail(data, 'nobody@x.io')).toEqual([]);
  });

  it('follows an insert, an email change and a delete made through the index functions', () => {
    const data = dataset(user(1, 'a@x.io'));
    expect(ids(usersWithEmail(data, 'a@x.io'))).toEqual([1]); // index built
    const added = user(2, 'New@x.io');
    data.users['2'] = added;
    indexUserEmail(data, added);
    expect(ids(usersWithEmail(data, 'new@x.io'))).toEqual([2]);
    const previous = added.email;
    added.email = 'renamed@x.io';
    indexUserEmail(data, added, previous);
    expect(usersWithEmail(data, 'new@x.io')).toEqual([]);
    expect(ids(usersWithEmail(data, 'RENAMED@x.io'))).toEqual([2]);
    unindexUserEmail(data, added);
    delete data.users['2'];
    expect(usersWithEmail(data, 'renamed@x.io')).toEqual([]);
  });

  it('holds several users of one email (a file edited by hand) as they come and go', () => {
    const data = dataset(user(1, 'a@x.io'), user(2, 'A@x.io'), user(3, 'b@x.io'));
    expect(ids(usersWithEmail(data, 'a@x.io'))).toEqual([1, 2]);
    const third = user(4, 'a@X.io');
    data.users['4'] = third;
    indexUserEmail(data, third);
    indexUserEmail(data, third); // told twice: still once
    expect(ids(usersWithEmail(data, 'a@x.io'))).toEqual([1, 2, 4]);
    for (const [id, left] of [
      [2, [1, 4]],
      [1, [4]],
      [4, []],
    ] as const) {
      unindexUserEmail(data, data.users[String(id)] as UserRecord);
      delete data.users[String(id)];
      expect(ids(usersWithEmail(data, 'a@x.io'))).toEqual(left);
    }
    const back = user(5, 'a@x.io');
    data.users['5'] = back;
    indexUserEmail(data, back);
    unindexUserEmail(data, user(9, 'a@x.io')); // another id: changes nothing
    expect(ids(usersWithEmail(data, 'a@x.io'))).toEqual([5]);
    expect(ids(usersWithEmail(data, 'b@x.io'))).toEqual([3]);
  });

  it('never answers with a user that no longer holds the email, even if the index was not told', () => {
    const data = dataset(user(1, 'a@x.io'));
    expect(ids(usersWithEmail(data, 'a@x.io'))).toEqual([1]);
    (data.users['1'] as UserRecord).email = 'changed@x.io';
    expect(usersWithEmail(data, 'a@x.io')).toEqual([]);
    delete data.users['1'];
    expect(usersWithEmail(data, 'a@x.io')).toEqual([]);
  });

  it('indexes a collection replaced as a whole afresh (a reset, a rollback)', () => {
    const data = dataset(user(1, 'a@x.io'));
    expect(ids(usersWithEmail(data, 'a@x.io'))).toEqual([1]);
    data.users = { '7': user(7, 'a@x.io'), '8': user(8, 'c@x.io') };
    expect(ids(usersWithEmail(data, 'a@x.io'))).toEqual([7]);
    expect(ids(usersWithEmail(data, 'c@x.io'))).toEqual([8]);
  });

  it('keeps two datasets apart', () => {
    const one = dataset(user(1, 'a@x.io'));
    const two = dataset(user(1, 'b@x.io'));
    expect(ids(usersWithEmail(one, 'a@x.io'))).toEqual([1]);
    expect(usersWithEmail(two, 'a@x.io')).toEqual([]);
  });
});
