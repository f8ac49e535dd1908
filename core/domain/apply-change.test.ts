import { describe, expect, it } from 'vitest';
import { applyChange } from './apply-change.js';
import type { Dataset } from './dataset.js';
import type { Store } from './store.js';
import { MemoryStore } from '../../test/support/domain/memory-store.js';
import { createTestContext } from '../../test/support/domain/test-context.js';
import { testDataset } from '../../test/support/domain/test-dataset.js';
import { createUser } from './users-service.js';

/** A store whose callbacks run later, one after another, as a durable store's queue would. */
class QueuedStore implements Store {
  readonly #inner: MemoryStore;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(data: Dataset) {
    this.#inner = new MemoryStore(data);
  }

  get data(): Dataset {
    return this.#inner.data;
  }

  write<T>(mutate: (data: Dataset) => T): Promise<T> {
    const result = this.#queue.then(() => this.#inner.write(mutate));
    this.#queue = result.catch(() => undefined);
    return result;
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

describe('applyChange', () => {
  it('answers a no-op without a write', async () => {
    const store = new MemoryStore(testDataset());
    await expect(applyChange(store, () => ({ unchanged: 'same' }))).resolves.toBe('same');
    expect(store.writes).toBe(0);
  });

  it('refuses before writing when the rules fail on the current data', async () => {
    const store = new MemoryStore(testDataset());
    const refuse = (): never => {
      throw new RangeError('refused');
    };
    await expect(applyChange(store, refuse)).rejects.toThrow('refused');
    expect(store.writes).toBe(0);
  });

  it('judges again inside the write, so queued changes cannot break a rule', async () => {
    const { ctx } = createTestContext(testDataset());
    const store = new QueuedStore(testDataset());
    const queued = { ...ctx, store };
    // Both pass the first look (the email is free), only one may win the write.
    const results = await Promise.allSettled([
      createUser(queued, { name: 'A', email: 'same@example.com' }),
      createUser(queued, { name: 'B', email: 'SAME@example.com' }),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
    expect(results[1]).toMatchObject({ reason: { slug: 'duplicate-email' } });
    expect(Object.keys(store.data.users)).toEqual(['1', '2', '3', '4', '5']);
  });
});
