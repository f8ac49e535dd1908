import { describe, expect, it, vi } from 'vitest';
import { CHUNK_RECORDS, createFragmentSerializer } from './fragment-serializer.js';

function user(id: number) {
  return {
    id,
    name: `User ${id}`,
    email: `user${id}@example.com`,
    age: id % 3 === 0 ? null : 30,
    status: 'ACTIVE',
    createdAt: '2030-01-01T00:00:00.000Z',
    updatedAt: '2030-01-01T00:00:00.000Z',
    roleIds: [1],
    passwordHash: null,
  };
}

function dataset() {
  return {
    schemaVersion: 1,
    createdAt: '2030-01-01T00:00:00.000Z',
    counters: { users: 5, orders: 0, orderItems: 0 },
    users: Object.fromEntries([1, 2, 3, 4, 5].map((id) => [String(id), user(id)])),
    orders: {} as Record<string, unknown>,
    refreshTokens: {} as Record<string, unknown>,
  };
}

describe('createFragmentSerializer', () => {
  it.each([false, true])(
    'gives exactly JSON.stringify(data), before and after every kind of change in place (shared memory: %s)',
    (sharedMemory) => {
      const serialize = createFragmentSerializer({ sharedMemory });
      const data = dataset();
      const users = data.users as Record<string, Record<string, unknown>>;
      const same = () =>
        expect(Buffer.concat(serialize(data)).toString()).toBe(JSON.stringify(data));
      const changes: (() => void)[] = [
        () => {},
        () => Object.assign(users['2'] as object, { name: 'Renamed', updatedAt: 'later' }),
        () => (users['3'] as { roleIds: number[] }).roleIds.push(2),
        () => ((users['3'] as { roleIds: number[] }).roleIds[0] = 7),
        () => ((users['3'] as Record<string, unknown>).roleIds = 7), // an array becomes a number
        () => ((users['3'] as Record<string, unknown>).roleIds = [7]), // and an array again
        () => ((users['3'] as Record<string, unknown>).roleIds = []),
        () => ((users['1'] as Record<string, unknown>).tags = ['a', 'b']), // two arrays in a row
        () => (users['1'] as { tags: string[] }).tags.pop(),
        () => delete users['4'],
        () => delete (users['1'] as Record<string, unknown>).age,
        () => ((users['1'] as Record<string, unknown>).age = 41), // re-added: a new key order
        () => ((users['5'] as Record<string, unknown>).extra = undefined),
        () => ((users['5'] as Record<string, unknown>).nested = { a: 1 }),
        () => (((users['5'] as Record<string, unknown>).nested as { a: number }).a = 2),
        () => ((users['2'] as Record<string, unknown>).when = new Date(0)),
        () => (users['2'] as Record<string, { setTime(n: number): void }>).when?.setTime(5),
        () => ((users['2'] as Record<string, unknown>).score = Number.NaN),
        () => ((users['10'] = user(10)), (users['7'] = user(7))),
        () => (users['x-key'] = user(99)),
        () => (users['plain'] = 'not a record' as unknown as Record<string, unknown>),
        () => (users['gone'] = undefined as unknown as Record<string, unknown>),
        () => ((users['6'] = users['7'] as Record<string, unknown>), delete users['7']), // moved key
        () => (data.orders['1'] = { id: 1, items: [{ id: 1 }] }),
        () => (data.refreshTokens = { abc: { hash: 'abc', spentAt: null } }),
        () => ((data as Record<string, unknown>).fn = () => 1),
        () => (data.counters.users = 11),
      ];
      for (const change of changes) {
        change();
        same();
        same(); // and again, from what it remembered
      }
    },
  );

  it('encodes the remembered chunks into SharedArrayBuffers when asked to', () => {
    const data = dataset();
    for (let id = 6; id <= 600; id++) data.users[String(id)] = user(id);
    const sharedPieces = createFragmentSerializer({ sharedMemory: true })(data);
    const plainPieces = createFragmentSerializer()(data);
    expect(Buffer.concat(sharedPieces).toString()).toBe(JSON.stringify(data));
    // Every piece holding records (the data set's own keys come in a few small pieces).
    const chunkPieces = sharedPieces.filter((piece) => piece.includes('"passwordHash"'));
    expect(chunkPieces).toHaveLength(Math.ceil(600 / CHUNK_RECORDS));
    for (const piece of chunkPieces) expect(piece.buffer).toBeInstanceOf(SharedArrayBuffer);
    for (const piece of plainPieces) expect(piece.buffer).not.toBeInstanceOf(SharedArrayBuffer);
  });

  it('stays exact through seeded random changes across chunk boundaries', () => {
    const serialize = createFragmentSerializer({ sharedMemory: true });
    const data = dataset();
    const users = data.users as Record<string, Record<string, unknown>>;
    for (let id = 6; id <= 700; id++) users[String(id)] = user(id);
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let nextId = 701;
    for (let round = 0; round < 200; round++) {
      for (let change = random(4); change >= 0; change--) {
        const id = String(1 + random(nextId));
        switch (random(5)) {
          case 0: // a new user at the end (a create)
            users[String(nextId)] = user(nextId);
            nextId++;
            break;
          case 1: // a user removed (a delete), or one put back at its id
            if (users[id]) delete users[id];
            else users[id] = user(Number(id));
            break;
          case 2:
            if (users[id]) users[id].name = `Renamed ${round}`;
            break;
          case 3:
            if (users[id]) (users[id].roleIds as number[]).push(round);
            break;
          default:
            data.counters.users = round;
        }
      }
      expect(Buffer.concat(serialize(data)).toString()).toBe(JSON.stringify(data));
    }
  });

  it('handles values that are not a plain data set', () => {
    const serialize = createFragmentSerializer();
    for (const value of [[1, 2], 'text', null, { toJSON: () => 'custom' }, new Date(0), {}]) {
      expect(Buffer.concat(serialize(value as object)).toString()).toBe(JSON.stringify(value));
    }
  });

  it('serializes again only the records that changed', () => {
    const serialize = createFragmentSerializer();
    const data = dataset();
    for (let id = 6; id <= 3000; id++) data.users[String(id)] = user(id);
    serialize(data);
    const calls = vi.spyOn(JSON, 'stringify');
    try {
      serialize(data);
      const unchanged = calls.mock.calls.length;
      expect(unchanged).toBeLessThan(20); // the top level only, not 3,000 records
      (data.users['1500'] as { name: string }).name = 'Changed';
      calls.mockClear();
      expect(Buffer.concat(serialize(data)).toString()).toBe(JSON.stringify(data));
      // The changed record's chunk (a key and a record each), nothing else.
      expect(calls.mock.calls.length - 1).toBe(unchanged + 2 * CHUNK_RECORDS);
    } finally {
      calls.mockRestore();
    }
  });
});
