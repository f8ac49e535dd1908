import { ApiProblem } from '../domain/api-problem.js';
import type { IdempotencyRecord } from '../domain/dataset.js';
import type { Repository, RepositoryWriter } from '../repository/repository.js';

/** The part of an answer that a replay repeats: status, body and the headers that describe it. */
export interface RememberedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/**
 * Gives the handler of a keyed request a repository whose first transaction also stores the
 * key's answer, `answerOf` what that transaction returned, in place of the key's claim.
 *
 * @example
 * const repo = answerWithWrite((user) => renderResult(created(user), 'POST', headers));
 */
export type AnswerWithWrite = (answerOf: (written: unknown) => RememberedAnswer) => Repository;

/** What became of a keyed write: its answer committed with it, or its claim was lost. */
export interface KeyedWriteOutcome {
  /** The answer stored in the write's own transaction (the write committed). */
  committed: RememberedAnswer | undefined;
  /** The claim was taken over meanwhile: the write was rolled back, answered 409. */
  lost: boolean;
}

/**
 * The unit of work of a keyed request (decision 0109, after Stripe's keys): the handler's
 * write and the key's answer commit in one transaction, so that after a crash at any moment a
 * retry finds either both (and replays) or neither (and runs once). The answer is rendered
 * inside that transaction from what it returns; it replaces the claim only while the claim
 * is still `claimed` (the store judges: another instance may have taken it over, having judged
 * this one gone), else the write rolls back and the request is answered 409 in-use.
 *
 * @example
 * const write = keyedWrite(ctx.repo, claimed, (answer) => recordOf(claimed, answer));
 * const answer = await execute(write.answerWith);
 * write.outcome().committed; // the answer that committed with the write, if one did
 */
export function keyedWrite(
  repo: Repository,
  claimed: IdempotencyRecord,
  recordOf: (answer: RememberedAnswer) => IdempotencyRecord,
): { answerWith: AnswerWithWrite; outcome(): KeyedWriteOutcome } {
  const outcome: KeyedWriteOutcome = { committed: undefined, lost: false };
  let used = false;
  const answerWith: AnswerWithWrite = (answerOf) => ({
    ...repo,
    async transact<T>(work: (tx: RepositoryWriter) => Promise<T>): Promise<T> {
      // The keyed operations write once; a later transaction (none today) would be plain.
      if (used) return repo.transact(work);
      used = true;
      let answer: RememberedAnswer | undefined;
      const result = await repo.transact(async (tx) => {
        const written = await work(tx);
        answer = answerOf(written);
        outcome.lost = !(await tx.settleIdempotency(claimed, recordOf(answer)));
        if (outcome.lost) throw keyInUse();
        return written;
      });
      outcome.committed = answer;
      return result;
    },
  });
  return { answerWith, outcome: () => outcome };
}

/** 409 `idempotency-key-in-use`. */
export function keyInUse(): ApiProblem {
  return new ApiProblem(
    'idempotency-key-in-use',
    'A request with this Idempotency-Key is still being handled; retry once it has finished',
  );
}
