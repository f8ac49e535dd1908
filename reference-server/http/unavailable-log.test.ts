import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../core/domain/store.js';
import type { Repository } from '../../core/repository/repository.js';
import { storeOutageLog, unavailableLog, watchAvailability } from './unavailable-log.js';

describe('unavailableLog', () => {
  it('says why, once per 10 s, counting the 503s each line stands for', () => {
    const lines: Record<string, unknown>[] = [];
    let now = 0;
    const onUnavailable = unavailableLog(
      (line) => lines.push(line),
      () => now,
    );
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    const error = new StoreUnavailableError('the database is unavailable', 1, { cause: refused });
    onUnavailable(error, 'r1');
    now = 5_000;
    onUnavailable(error, 'r2');
    onUnavailable(error, 'r3');
    now = 10_000;
    onUnavailable(error, 'r4');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 'warn', requestId: 'r1', requests: 1 });
    expect(lines[0]?.error).toBe(
      'Error: the database is unavailable: Error [ECONNREFUSED]: connect ECONNREFUSED 127.0.0.1:5432',
    );
    expect(lines[1]).toMatchObject({ requestId: 'r4', requests: 3 });
  });
});

describe('storeOutageLog', () => {
  const error = new StoreUnavailableError('the database is unavailable');

  it('says once that the store is back, how long it was not, and how many requests got 503', () => {
    const lines: Record<string, unknown>[] = [];
    let now = 1_000;
    const outage = storeOutageLog(
      (line) => lines.push(line),
      () => now,
    );
    const before = outage.current();
    expect(before).toBeUndefined();
    outage.unavailable(error, 'r1');
    const during = outage.current();
    now = 4_000;
    outage.unavailable(error, 'r2');
    outage.answered(before); // begun before the outage: proves nothing
    expect(lines).toHaveLength(1);
    now = 13_500;
    outage.answered(during);
    outage.answered(during);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({
      level: 'warn',
      msg: 'store available again',
      unavailableSeconds: 12.5,
      requests: 2,
    });
    // The next outage is a new one: its first 503 is logged at once.
    now = 14_000;
    outage.unavailable(error, 'r3');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatchObject({ msg: 'store unavailable: answering 503', requests: 1 });
  });

  it('watchAvailability ends the outage on a call begun during it, reads only when told', async () => {
    const lines: Record<string, unknown>[] = [];
    const outage = storeOutageLog((line) => lines.push(line));
    const repository = {
      user: async () => undefined,
      transact: async () => 7,
      close: async () => undefined,
    } as unknown as Repository;
    const fileStore = watchAvailability(repository, outage, { reads: false });
    const database = watchAvailability(repository, outage, { reads: true });
    outage.unavailable(error, 'r1');
    await fileStore.user(1); // answered from memory: says nothing about the disk
    expect(lines.map((l) => l.msg)).toEqual(['store unavailable: answering 503']);
    await database.user(1);
    expect(lines.map((l) => l.msg)).toEqual([
      'store unavailable: answering 503',
      'store available again',
    ]);
    outage.unavailable(error, 'r2');
    expect(await fileStore.transact(async () => 0)).toBe(7);
    expect(lines.at(-1)?.msg).toBe('store available again');
    expect(lines).toHaveLength(4);
  });
});
