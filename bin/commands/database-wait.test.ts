import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../core/domain/store.js';
import { CliError } from '../cli-error.js';
import { waitForDatabase } from './database-wait.js';

/** A fake clock: sleeping moves it on. */
function clock() {
  let t = 0;
  return { now: () => t, sleep: async (ms: number) => void (t += ms), elapsed: () => t };
}

const down = () => new StoreUnavailableError('the database is unavailable: connect ECONNREFUSED');

describe('waitForDatabase', () => {
  it('starts once, without waiting, when there is no database', async () => {
    let calls = 0;
    const result = await waitForDatabase(async () => ++calls, {
      redactedUrl: undefined,
      waitSeconds: 30,
      say: () => undefined,
    });
    expect([result, calls]).toEqual([1, 1]);
  });

  it('tries again while the database is unavailable, and starts once it is up', async () => {
    const c = clock();
    const said: string[] = [];
    let calls = 0;
    const result = await waitForDatabase(
      async () => {
        calls += 1;
        if (c.elapsed() < 5_000) throw down();
        return 'started';
      },
      { redactedUrl: 'postgres://a:***@db/x', waitSeconds: 30, say: (l) => said.push(l), ...c },
    );
    expect(result).toBe('started');
    expect(calls).toBeGreaterThan(3);
    expect(said).toEqual([
      'waiting for PostgreSQL at postgres://a:***@db/x (the database is unavailable: connect ECONNREFUSED); giving up in 30 s',
    ]);
  });

  it('gives up with a CliError naming the reason once the wait is over', async () => {
    const c = clock();
    const said: string[] = [];
    const waiting = waitForDatabase(() => Promise.reject(down()), {
      redactedUrl: 'postgres://db/x',
      waitSeconds: 25,
      say: (l) => said.push(l),
      ...c,
    });
    await expect(waiting).rejects.toThrow(
      new CliError(
        'the database is unavailable: connect ECONNREFUSED after waiting 25 s (PostgreSQL at postgres://db/x); start it or check --database-url (--database-wait sets how long to wait)',
      ),
    );
    expect(c.elapsed()).toBe(25_000);
    expect(said).toHaveLength(3); // at 0, 10 and 20 s
  });

  it('tries once with a wait of 0', async () => {
    let calls = 0;
    const waiting = waitForDatabase(
      () => {
        calls += 1;
        return Promise.reject(down());
      },
      { redactedUrl: 'postgres://db/x', waitSeconds: 0, say: () => undefined, ...clock() },
    );
    await expect(waiting).rejects.toBeInstanceOf(CliError);
    expect(calls).toBe(1);
  });

  it('does not wait for a refusal of the database itself (a SQLSTATE): a CliError at once', async () => {
    const refusal = Object.assign(new Error('database "nosuch" does not exist'), { code: '3D000' });
    let calls = 0;
    const waiting = waitForDatabase(
      () => {
        calls += 1;
        return Promise.reject(refusal);
      },
      { redactedUrl: 'postgres://db/nosuch', waitSeconds: 30, say: () => undefined, ...clock() },
    );
    await expect(waiting).rejects.toThrow(
      'PostgreSQL at postgres://db/nosuch refused: database "nosuch" does not exist',
    );
    expect(calls).toBe(1);
  });

  it('rethrows any other error as it is', async () => {
    const bug = new TypeError('not a database problem');
    const waiting = waitForDatabase(() => Promise.reject(bug), {
      redactedUrl: 'postgres://db/x',
      waitSeconds: 30,
      say: () => undefined,
      ...clock(),
    });
    await expect(waiting).rejects.toBe(bug);
  });
});
