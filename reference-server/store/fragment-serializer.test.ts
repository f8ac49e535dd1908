import { describe, expect, it, vi } from 'vitest';
import type { ByteRange } from './file-replacer.js';
import { CHUNK_RECORDS, createFragmentSerializer } from './fragment-serializer.js';

/** The bytes the pieces stand for, ranges taken from `last` (the file last committed). */
function bytesOf(pieces: readonly (Buffer | ByteRange)[], last: Buffer): Buffer {
  return Buffer.concat(
    pieces.map((piece) =>
      Buffer.isBuffer(piece) ? piece : last.subarray(piece.offset, piece.offset + piece.length),
    ),
  );
}

/**
 * A serializer writing to a pretend file: each write copies the unchanged chunks from the last
 * one, as the file replacer does, and commits. `write` gives the file's text.
 */
function fileWriter() {
  const serializer = createFragmentSerializer();
  let last: Buffer = Buffer.alloc(0);
  return {
    serializer,
    write(data: object, reuse = true): string {
      const file = serializer.serialize(data, reuse);
      const bytes = bytesOf(file.pieces, last);
      expect(bytes.length).toBe(file.size);
      file.commit();
      last = bytes;
      return bytes.toString();
    },
  };
}

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
  it('gives exactly JSON.stringify(data), before and after every kind of change in place', () => {
    const writer = fileWriter();
    const data = dataset();
    const users = data.users as Record<string, Record<string, unknown>>;
    const same = () => expect(writer.write(data)).toBe(JSON.stringify(data));
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
  });

  it('copies unchanged chunks from the last committed file, as few ranges, and encodes the rest into shared memory', () => {
    const serializer = createFragmentSerializer();
    const data = dataset();
    for (let id = 6; id <= 600; id++) data.users[String(id)] = user(id);
    const whole = serializer.serialize(data, true); // nothing committed yet: every byte
    expect(whole.pieces.every((piece) => Buffer.isBuffer(piece))).toBe(true);
    const last = bytesOf(whole.pieces, Buffer.alloc(0));
    expect(last.toString()).toBe(JSON.stringify(data));
    const chunkPieces = (whole.pieces as Buffer[]).filter((p) => p.includes('"passwordHash"'));
    expect(chunkPieces).toHaveLength(Math.ceil(600 / CHUNK_RECORDS));
    for (const piece of chunkPieces) expect(piece.buffer).toBeInstanceOf(SharedArrayBuffer);
    whole.commit();

    (data.users['300'] as { name: string }).name = 'Changed';
    const file = serializer.serialize(data, true);
    // The chunks before the change in one range, the changed chunk, the chunks after in one.
    const ranges = file.pieces.filter((piece) => !Buffer.isBuffer(piece));
    expect(ranges).toHaveLength(2);
    const encoded = file.pieces.filter((piece): piece is Buffer => Buffer.isBuffer(piece));
    expect(encoded.filter((piece) => piece.includes('"Changed"'))).toHaveLength(1);
    expect(encoded.reduce((sum, piece) => sum + piece.length, 0)).toBeLessThan(last.length / 5);
    expect(bytesOf(file.pieces, last).toString()).toBe(JSON.stringify(data));
  });

  it('copies from a file of unknown layout (the one read) only the chunks it holds byte for byte', () => {
    const data = dataset();
    for (let id = 6; id <= 600; id++) data.users[String(id)] = user(id);
    const read = Buffer.from(JSON.stringify(data));
    const unknown = {
      size: read.length,
      read: (into: Buffer, position: number) => read.copy(into, 0, position),
    };
    // Changed since it was read: a longer record early on shifts every chunk after it, and the
    // counters (the data set's own keys) are another length.
    (data.users['3'] as { name: string }).name = 'A name much longer than the one in the file';
    data.counters.users = 123456;
    const file = createFragmentSerializer().serialize(data, false, unknown);
    expect(bytesOf(file.pieces, read).toString()).toBe(JSON.stringify(data));
    const encoded = file.pieces.filter((piece): piece is Buffer => Buffer.isBuffer(piece));
    expect(encoded.reduce((sum, piece) => sum + piece.length, 0)).toBeLessThan(read.length / 5);
    // Nothing copied from a file holding none of it.
    const other = Buffer.from(JSON.stringify({ other: 'x'.repeat(5000) }));
    const none = createFragmentSerializer().serialize(data, false, {
      size: other.length,
      read: (into: Buffer, position: number) => other.copy(into, 0, position),
    });
    expect(none.pieces.every((piece) => Buffer.isBuffer(piece))).toBe(true);
    expect(bytesOf(none.pieces, other).toString()).toBe(JSON.stringify(data));
  });

  it('encodes every byte when told not to reuse, and after forget', () => {
    const { serializer, write } = fileWriter();
    const data = dataset();
    write(data);
    for (const file of [
      serializer.serialize(data, false),
      (serializer.forget(), serializer.serialize(data, true)),
    ]) {
      expect(file.pieces.every((piece) => Buffer.isBuffer(piece))).toBe(true);
      expect(Buffer.concat(file.pieces as Buffer[]).toString()).toBe(JSON.stringify(data));
    }
  });

  it('keeps the committed layout until commit: an uncommitted file is never copied from', () => {
    const serializer = createFragmentSerializer();
    const data = dataset();
    for (let id = 6; id <= 300; id++) data.users[String(id)] = user(id);
    const first = serializer.serialize(data, true);
    const committed = bytesOf(first.pieces, Buffer.alloc(0));
    first.commit();
    // A write that failed: serialized, never committed (its records shifted the layout).
    (data.users['2'] as { name: string }).name = 'A much longer name than before';
    serializer.serialize(data, true);
    (data.users['3'] as { name: string }).name = 'Another';
    const next = serializer.serialize(data, true);
    expect(bytesOf(next.pieces, committed).toString()).toBe(JSON.stringify(data));
  });

  it('stays exact through seeded random changes across chunk boundaries', () => {
    const writer = fileWriter();
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
      expect(writer.write(data)).toBe(JSON.stringify(data));
    }
  });

  it('handles values that are not a plain data set', () => {
    const writer = fileWriter();
    for (const value of [[1, 2], 'text', null, { toJSON: () => 'custom' }, new Date(0), {}]) {
      expect(writer.write(value as object)).toBe(JSON.stringify(value));
    }
  });

  it('serializes again only the records that changed', () => {
    const { write } = fileWriter();
    const data = dataset();
    for (let id = 6; id <= 3000; id++) data.users[String(id)] = user(id);
    write(data);
    const calls = vi.spyOn(JSON, 'stringify');
    try {
      write(data);
      const unchanged = calls.mock.calls.length;
      expect(unchanged).toBeLessThan(20); // the top level only, not 3,000 records
      (data.users['1500'] as { name: string }).name = 'Changed';
      calls.mockClear();
      expect(write(data)).toBe(JSON.stringify(data));
      // The changed record's chunk (a key and a record each), nothing else.
      expect(calls.mock.calls.length - 1).toBe(unchanged + 2 * CHUNK_RECORDS);
    } finally {
      calls.mockRestore();
    }
  });
});
