import { ApiProblem } from '../domain/api-problem.js';
import type { IdempotencyRecord } from '../domain/dataset.js';
import type { DomainContext } from '../domain/ports.js';
import { StoreUnavailableError } from '../domain/store.js';
import {
  keyedWrite,
  keyInUse,
  type AnswerWithWrite,
  type RememberedAnswer,
} from './keyed-write.js';

export type { AnswerWithWrite, RememberedAnswer } from './keyed-write.js';

/** Headers a replay repeats; the rest (request id, rate limits, CORS) belong to each request. */
const REPLAYED_HEADERS = ['Content-Type', 'Location', 'ETag', 'Last-Modified', 'Cache-Control'];

/** An answer not yet stored, and the claim it is to replace. */
interface Unsaved {
  claim: IdempotencyRecord;
  record: IdempotencyRecord;
}

/**
 * Idempotency-Key handling (contract: HTTP semantics). A key is scoped to the caller, method
 * and path; the same key with the same body (compared as parsed JSON) within the time to live
 * replays the first answer; with another body it is 422; while the first request is still
 * being handled it is 409. Every answer to a request that passed validation is remembered,
 * problems included, and kept in the store so that replays survive a restart.
 *
 * Exactly once (decision 0109): the key is claimed in a transaction of its own; the answer of
 * a request that writes commits in the write's own transaction ({@link keyedWrite}); an answer
 * without a write (a refusal) is stored after it. A claim whose holder died is free at once
 * where the store can tell (a previous process on the JSON file, a closed session on
 * PostgreSQL), else when its lease ({@link CLAIM_LEASE_SECONDS}) runs out.
 */
export class IdempotencyKeys {
  private readonly inFlight = new Set<string>();

  /**
   * Answers made without a write (refusals) whose record the store refused to keep. They
   * replay from memory, and the next successful write stores them. Answers of writes are
   * never here: they commit with their write or not at all.
   */
  private readonly unsaved = new Map<string, Unsaved>();

  constructor(private readonly ctx: DomainContext) {}

  /**
   * Runs `execute` once for the key, or replays its answer. `execute` gets the means to have
   * its write's transaction store the answer ({@link AnswerWithWrite}); one that does not use
   * it has its answer stored after it.
   */
  async run(
    scope: string,
    body: unknown,
    execute: (answerWithWrite: AnswerWithWrite) => Promise<RememberedAnswer>,
  ): Promise<RememberedAnswer> {
    const requestBody = canonicalJson(body);
    const now = this.ctx.clock();
    const unsaved = this.unsaved.get(scope);
    if (unsaved && isLive(unsaved.record, now)) return replay(unsaved.record, requestBody);
    if (this.inFlight.has(scope)) throw keyInUse();
    // The key is claimed in the store, not only in this process: an instance sharing the
    // store then sees the request in flight (409) instead of running it a second time.
    const claimed = claim(scope, requestBody, now);
    const known = await this.ctx.repo.transact((tx) => tx.claimIdempotency(claimed, now));
    if (known) return replay(known, requestBody);
    this.inFlight.add(scope);
    try {
      return await this.carryOut(claimed, now, execute);
    } finally {
      this.inFlight.delete(scope);
    }
  }

  private async carryOut(
    claimed: IdempotencyRecord,
    now: Date,
    execute: (answerWithWrite: AnswerWithWrite) => Promise<RememberedAnswer>,
  ): Promise<RememberedAnswer> {
    const write = keyedWrite(this.ctx.repo, claimed, (answer) => this.recordOf(claimed, answer));
    let answer: RememberedAnswer;
    try {
      answer = await execute(write.answerWith);
    } catch (error) {
      await this.release(claimed, now);
      throw error;
    }
    const { committed, lost } = write.outcome();
    if (committed) return committed;
    // Another holder took the key over: its answer is the key's; this write was rolled back.
    if (lost) return answer;
    // A 503 means the write was not made (or, its commit unanswered, made with its answer):
    // remembering the 503 would make the retry pointless.
    if (answer.status === 503) {
      await this.release(claimed, now);
      return answer;
    }
    await this.remember({ claim: claimed, record: this.recordOf(claimed, answer) }, now);
    return answer;
  }

  /** The record of `answer` to the request that made `claimed`. */
  private recordOf(claimed: IdempotencyRecord, answer: RememberedAnswer): IdempotencyRecord {
    return {
      scope: claimed.scope,
      requestBody: claimed.requestBody,
      status: answer.status,
      headers: Object.fromEntries(
        REPLAYED_HEADERS.filter((h) => answer.headers[h]).map((h) => [
          h,
          answer.headers[h] as string,
        ]),
      ),
      body: answer.body,
      createdAt: claimed.createdAt,
      expiresAt: new Date(
        Date.parse(claimed.createdAt) + this.ctx.config.idempotencyTtlSeconds * 1000,
      ).toISOString(),
    };
  }

  /** Stores an answer made without a write (and any left unsaved before); in memory if refused. */
  private async remember(answer: Unsaved, now: Date): Promise<void> {
    const scope = answer.claim.scope;
    // This answer and those an earlier write failed to keep; not the answers other requests
    // are writing at this moment: on a store taking concurrent transactions (PostgreSQL) each
    // would write every other's record too, and they conflicted (measured: 32 concurrent keyed
    // creates, 2,391 serialization failures for 1,500 requests).
    const pending = [answer, ...[...this.unsaved.values()].filter((u) => u.claim.scope !== scope)];
    await this.ctx.repo
      .transact(async (tx) => {
        await tx.pruneExpiredIdempotency(now);
        // A claim taken over meanwhile is left to its new holder.
        for (const each of pending) await tx.settleIdempotency(each.claim, each.record);
      })
      .then(
        () => {
          // Only those this write saved (another write may have failed to keep one since), and
          // an expired answer of this scope, which this one replaces.
          this.unsaved.delete(scope);
          for (const saved of pending) {
            if (this.unsaved.get(saved.claim.scope) === saved)
              this.unsaved.delete(saved.claim.scope);
          }
        },
        (error: unknown) => {
          if (!(error instanceof StoreUnavailableError)) throw error;
          this.unsaved.set(scope, answer);
          pruneExpired(this.unsaved, now, MAX_UNSAVED);
        },
      );
  }

  /**
   * Gives a claimed key back (best effort: else it is free once its holder is known gone or
   * its lease runs out). Only the claim itself: when a commit whose answer was lost did happen,
   * the scope holds that answer, which stays.
   */
  private async release(claimed: IdempotencyRecord, now: Date): Promise<void> {
    const expired = { ...claimed, expiresAt: now.toISOString() };
    await this.ctx.repo
      .transact((tx) => tx.settleIdempotency(claimed, expired))
      .catch(() => undefined);
  }
}

/** The status of a key claimed by a request still being handled. */
const IN_FLIGHT = 0;

/**
 * How long a claim holds its key when the store cannot tell that its holder is gone (a host
 * that vanished without closing its database session; a claim written before holders were
 * recorded). A request still running after this long loses its key to a retry, and its own
 * write is then rolled back (the claim it would replace is gone). docs/deploy.md quotes it.
 */
export const CLAIM_LEASE_SECONDS = 60;

function claim(scope: string, requestBody: string, now: Date): IdempotencyRecord {
  return {
    scope,
    requestBody,
    status: IN_FLIGHT,
    headers: {},
    body: null,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + CLAIM_LEASE_SECONDS * 1000).toISOString(),
  };
}

function isLive(record: IdempotencyRecord, now: Date): boolean {
  return Date.parse(record.expiresAt) > now.getTime();
}

/** The remembered answer; 409 while it is still being made, 422 for another body. */
function replay(known: IdempotencyRecord, requestBody: string): RememberedAnswer {
  if (known.status === IN_FLIGHT) throw keyInUse();
  if (known.requestBody !== requestBody) {
    throw new ApiProblem(
      'idempotency-key-reused',
      'This Idempotency-Key was already used with a different request body; use a new key for a new request',
    );
  }
  return { status: known.status, headers: known.headers, body: known.body };
}

/** JSON with object keys sorted, so that `{"a":1,"b":2}` and `{"b":2,"a":1}` compare equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) =>
            a < b ? -1 : a > b ? 1 : 0,
          ),
        )
      : v,
  );
}

/** Bound of answers kept only in memory while the store refuses writes (oldest go first). */
const MAX_UNSAVED = 10_000;

function pruneExpired(records: Map<string, Unsaved>, now: Date, max: number): void {
  for (const [scope, { record }] of records) {
    if (Date.parse(record.expiresAt) <= now.getTime() || records.size > max) records.delete(scope);
  }
}
