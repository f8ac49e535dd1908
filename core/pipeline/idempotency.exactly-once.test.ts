import { describe, expect, it, vi } from 'vitest';
import { ApiProblem } from '../domain/api-problem.js';
import type { Dataset } from '../domain/dataset.js';
import type { DomainContext } from '../domain/ports.js';
import { StoreUnavailableError } from '../domain/store.js';
import { createDatasetRepository } from '../repository/dataset-repository.js';
import type { Repository } from '../repository/repository.js';
import { MemoryStore } from '../../test/support/domain/memory-store.js';
import { createTestContext, type TestContext } from '../../test/support/domain/test-context.js';
import { testDataset, userRecord } from '../../test/support/domain/test-dataset.js';
import { IdempotencyKeys, type AnswerWithWrite, type RememberedAnswer } from './idempotency.js';

// Decision 0109: the answer of a keyed write commits in the write's own transaction, so that a
// retry after a crash at any moment replays it or runs the request once; a claim left by a
// process that is gone is free at once.

const SCOPE = '1 POST /api/v1/users key-1';
const BODY = { name: 'a' };

const answerOf = (id: unknown): RememberedAnswer => ({
  status: 201,
  headers: { Location: `/api/v1/users/${String(id)}` },
  body: `{"id":${String(id)}}`,
});

/** A request creating a user in the repository `answerWithWrite` gives it. */
function createsUser(answerWithWrite: AnswerWithWrite): Promise<RememberedAnswer> {
  const repo = answerWithWrite(answerOf);
  return repo
    .transact(async (tx) => {
      const id = await tx.nextId('users');
      await tx.putUser(userRecord(id, { email: `u${id}@example.com` }));
      return id;
    })
    .then(answerOf, (error: unknown) => {
      // As runOperation renders a problem: a refusal (or a lost claim) becomes its answer.
      if (error instanceof ApiProblem) return { status: error.status, headers: {}, body: null };
      if (error instanceof StoreUnavailableError) return { status: 503, headers: {}, body: null };
      throw error;
    });
}

/** The same process's keys, or a new process's over `data` (what its last commit left). */
function restartedOver(tc: TestContext, data: Dataset): IdempotencyKeys {
  const repo = createDatasetRepository(new MemoryStore(data));
  return new IdempotencyKeys({ ...tc.ctx, repo });
}

const usersIn = (data: Dataset) => Object.keys(data.users).length;

describe('IdempotencyKeys: exactly once', () => {
  it('commits the answer with the write: one store write holds both', async () => {
    const tc = createTestContext(testDataset());
    const keys = new IdempotencyKeys(tc.ctx);
    const before = usersIn(tc.store.data);
    const answer = await keys.run(SCOPE, BODY, createsUser);
    expect(answer.status).toBe(201);
    expect(tc.store.writes).toBe(2); // the claim; the user with the answer
    expect(usersIn(tc.store.data)).toBe(before + 1);
    expect(tc.store.data.idempotency[SCOPE]).toMatchObject({ status: 201, body: answer.body });
    expect(tc.store.data.idempotency[SCOPE]).not.toHaveProperty('owner');
  });

  it('replays after a crash right after the commit, before any answer went out', async () => {
    const tc = createTestContext(testDataset());
    const keys = new IdempotencyKeys(tc.ctx);
    let committed!: () => void;
    const hasCommitted = new Promise<void>((resolve) => (committed = resolve));
    // The write commits, then the process dies: its request never answers.
    void keys.run(SCOPE, BODY, (answerWithWrite) =>
      createsUser(answerWithWrite).then(() => {
        committed();
        return new Promise<RememberedAnswer>(() => {});
      }),
    );
    await hasCommitted;
    const disk = structuredClone(tc.store.data);
    const execute = vi.fn(createsUser);
    const replay = await restartedOver(tc, disk).run(SCOPE, BODY, execute);
    expect(execute).not.toHaveBeenCalled();
    expect(replay).toMatchObject({ status: 201, body: disk.idempotency[SCOPE]?.body });
  });

  it('runs once, at once, after a crash between the claim and the commit', async () => {
    const tc = createTestContext(testDataset());
    const keys = new IdempotencyKeys(tc.ctx);
    let claimed!: (data: Dataset) => void;
    const disk = new Promise<Dataset>((resolve) => (claimed = resolve));
    // The claim is durable, then the process dies before its write.
    void keys.run(SCOPE, BODY, () => {
      claimed(structuredClone(tc.store.data));
      return new Promise<RememberedAnswer>(() => {});
    });
    const left = await disk;
    expect(left.idempotency[SCOPE]).toMatchObject({ status: 0, owner: expect.any(String) });
    // No lease to wait out: the clock has not moved.
    const execute = vi.fn(createsUser);
    const answer = await restartedOver(tc, left).run(SCOPE, BODY, execute);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(answer.status).toBe(201);
    // The same process still holds its own claim until the request ends (or its lease).
    await expect(keys.run(SCOPE, BODY, execute)).rejects.toMatchObject({ status: 409 });
  });

  it('rolls the write back and answers 409 when the claim was taken over meanwhile', async () => {
    const tc = createTestContext(testDataset());
    const keys = new IdempotencyKeys(tc.ctx);
    const before = usersIn(tc.store.data);
    const answer = await keys.run(SCOPE, BODY, (answerWithWrite) => {
      // Another holder, judging this one gone, claimed the key again.
      const held = tc.store.data.idempotency[SCOPE]!;
      tc.store.data.idempotency[SCOPE] = { ...held, owner: 'another-process' };
      return createsUser(answerWithWrite);
    });
    expect(answer.status).toBe(409);
    expect(usersIn(tc.store.data)).toBe(before);
    expect(tc.store.data.idempotency[SCOPE]).toMatchObject({ status: 0, owner: 'another-process' });
  });

  it('keeps an answer that committed though the commit was answered 503, and replays it', async () => {
    const tc = createTestContext(testDataset());
    // The write's transaction commits, and then the store says it is unavailable (PostgreSQL:
    // the connection lost during COMMIT): the outcome is unknown to the request.
    let transactions = 0;
    const repo: Repository = {
      ...tc.ctx.repo,
      async transact(work) {
        const result = await tc.ctx.repo.transact(work);
        if ((transactions += 1) === 2) throw new StoreUnavailableError('lost during COMMIT');
        return result;
      },
    };
    const keys = new IdempotencyKeys({ ...tc.ctx, repo } satisfies DomainContext);
    expect((await keys.run(SCOPE, BODY, createsUser)).status).toBe(503);
    const execute = vi.fn(createsUser);
    const replay = await keys.run(SCOPE, BODY, execute);
    expect(execute).not.toHaveBeenCalled();
    expect(replay.status).toBe(201);
  });

  it('stores a refusal, made without a write, after it', async () => {
    const tc = createTestContext(testDataset());
    const keys = new IdempotencyKeys(tc.ctx);
    const refuses = (answerWithWrite: AnswerWithWrite) =>
      answerWithWrite(answerOf)
        .transact(async () => {
          throw new ApiProblem('duplicate-email', 'taken');
        })
        .catch((error: ApiProblem) => ({ status: error.status, headers: {}, body: null }));
    expect((await keys.run(SCOPE, BODY, refuses)).status).toBe(409);
    expect(tc.store.data.idempotency[SCOPE]).toMatchObject({ status: 409 });
    const execute = vi.fn(createsUser);
    expect((await keys.run(SCOPE, BODY, execute)).status).toBe(409);
    expect(execute).not.toHaveBeenCalled();
  });
});
