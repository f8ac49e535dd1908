import { ApiProblem } from '../domain/api-problem.js';
import type { IdempotencyRecord } from '../domain/dataset.js';
import type { DomainContext } from '../domain/ports.js';
import { StoreUnavailableError } from '../domain/store.js';

/** The part of an answer that a replay repeats: status, body and the headers that describe it. */
export interface RememberedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** Headers a replay repeats; the rest (request id, rate limits, CORS) belong to each request. */
const REPLAYED_HEADERS = ['Content-Type', 'Location', 'ETag', 'Last-Modified', 'Cache-Control'];

/**
 * Idempotency-Key handling (contract: HTTP semantics). A key is scoped to the caller, method
 * and path; the same key with the same body (compared as parsed JSON) within the time to live
 * replays the first answer; with another body it is 422; while the first request is still
 * being handled it is 409. Every answer to a request that passed validation is remembered,
 * problems included, and kept in the store so that replays survive a restart.
 */
export class IdempotencyKeys {
  private readonly inFlight = new Set<string>();

  /**
   * Answers whose record could not be written (the store failed right after the change itself
   * was made). They still replay from memory, and the next successful write stores them: a
   * retry must not repeat a change that happened. Only a crash in that window loses them.
   */
  private readonly unsaved = new Map<string, IdempotencyRecord>();

  constructor(private readonly ctx: DomainContext) {}

  async run(
    scope: string,
    body: unknown,
    execute: () => Promise<RememberedAnswer>,
  ): Promise<RememberedAnswer> {
    const requestBody = canonicalJson(body);
    const now = this.ctx.clock();
    const unsaved = this.unsaved.get(scope);
    if (unsaved && isLive(unsaved, now)) return replay(unsaved, requestBody);
    if (this.inFlight.has(scope)) throw keyInUse();
    // The key is claimed in the store, not only in this process: an instance sharing the
    // store then sees the request in flight (409) instead of running it a second time.
    const known = await this.ctx.repo.transact((tx) =>
      tx.claimIdempotency(claim(scope, requestBody, now), now),
    );
    if (known) return replay(known, requestBody);
    this.inFlight.add(scope);
    try {
      let answer: RememberedAnswer;
      try {
        answer = await execute();
      } catch (error) {
        await this.release(scope, requestBody, now);
        throw error;
      }
      // A 503 means the write was not made: remembering it would make the retry pointless.
      if (answer.status === 503) {
        await this.release(scope, requestBody, now);
        return answer;
      }
      await this.remember(scope, requestBody, answer, now);
      return answer;
    } finally {
      this.inFlight.delete(scope);
    }
  }

  /** Stores the answer (and any left unsaved before); kept in memory if the store refuses. */
  private async remember(
    scope: string,
    requestBody: string,
    answer: RememberedAnswer,
    now: Date,
  ): Promise<void> {
    const record: IdempotencyRecord = {
      scope,
      requestBody,
      status: answer.status,
      headers: Object.fromEntries(
        REPLAYED_HEADERS.filter((h) => answer.headers[h]).map((h) => [
          h,
          answer.headers[h] as string,
        ]),
      ),
      body: answer.body,
      createdAt: now.toISOString(),
      expiresAt: new Date(
        now.getTime() + this.ctx.config.idempotencyTtlSeconds * 1000,
      ).toISOString(),
    };
    // This answer and those an earlier write failed to keep; not the answers other requests
    // are writing at this moment: on a store taking concurrent transactions (PostgreSQL) each
    // would write every other's record too, and they conflicted (measured: 32 concurrent keyed
    // creates, 2,391 serialization failures for 1,500 requests).
    const pending = [record, ...[...this.unsaved.values()].filter((r) => r.scope !== scope)];
    await this.ctx.repo
      .transact(async (tx) => {
        await tx.pruneExpiredIdempotency(now);
        for (const each of pending) await tx.putIdempotency(each);
      })
      .then(
        () => {
          // Only those this write saved (another write may have failed to keep one since), and
          // an expired answer of this scope, which this one replaces.
          this.unsaved.delete(scope);
          for (const saved of pending) {
            if (this.unsaved.get(saved.scope) === saved) this.unsaved.delete(saved.scope);
          }
        },
        (error: unknown) => {
          if (!(error instanceof StoreUnavailableError)) throw error;
          this.unsaved.set(scope, record);
          pruneExpired(this.unsaved, now, MAX_UNSAVED);
        },
      );
  }

  /** Gives a claimed key back (best effort: else its lease runs out). */
  private async release(scope: string, requestBody: string, now: Date): Promise<void> {
    const expired = { ...claim(scope, requestBody, now), expiresAt: now.toISOString() };
    await this.ctx.repo.transact((tx) => tx.putIdempotency(expired)).catch(() => undefined);
  }
}

/**
 * The status of a key claimed by a request still being handled. Its record lives for
 * {@link CLAIM_LEASE_SECONDS} only, so a key whose instance died mid-request is free again.
 */
const IN_FLIGHT = 0;
const CLAIM_LEASE_SECONDS = 60;

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

function keyInUse(): ApiProblem {
  return new ApiProblem(
    'idempotency-key-in-use',
    'A request with this Idempotency-Key is still being handled; retry once it has finished',
  );
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

function pruneExpired(records: Map<string, IdempotencyRecord>, now: Date, max: number): void {
  for (const [scope, record] of records) {
    if (Date.parse(record.expiresAt) <= now.getTime() || records.size > max) records.delete(scope);
  }
}
