import type { operations } from '../spec/openapi-types.js';

/** Every operationId of the contract. */
export type OperationId = keyof operations;
/** The statuses the spec documents for an operation. */
export type StatusOf<O extends OperationId> = Extract<keyof operations[O]['responses'], number>;
/** The body the spec documents for an operation and status (never when it documents none). */
export type BodyOf<
  O extends OperationId,
  S extends StatusOf<O>,
> = operations[O]['responses'][S] extends {
  content: infer C;
}
  ? C[keyof C]
  : never;

/**
 * The body an override gives: the spec's, except that a problem's `instance` and `requestId`
 * may be left out, since the mocks set both to the request's own (decision 0046).
 */
export type OverrideBody<B> = B extends { instance: string; requestId: string }
  ? Omit<B, 'instance' | 'requestId'> & Partial<Pick<B, 'instance' | 'requestId'>>
  : B;

/** A canned answer for one operation; the compiler checks status and body against the spec. */
export type OverrideAnswer<O extends OperationId, S extends StatusOf<O>> =
  | { status: S; body?: OverrideBody<BodyOf<O, S>>; headers?: Record<string, string> }
  | { networkError: true };

export interface OverrideOptions {
  /** Answer only this many times, then fall back to the real behaviour (default: always). */
  times?: number;
  /** Answer only the nth call from now (1-based), once. */
  nth?: number;
}

interface Entry {
  answer: {
    status?: number;
    body?: unknown;
    headers?: Record<string, string>;
    networkError?: true;
  };
  remaining: number;
  skip: number;
}

/**
 * Per-operation canned answers for the mocks: one-shot, n-times, or the nth call. Answers
 * still go through the mocks' response validation, so an override cannot teach a frontend
 * test something the real backend could never send.
 */
export class MockOverrides {
  private readonly entries = new Map<string, Entry[]>();

  add<O extends OperationId, S extends StatusOf<O>>(
    operationId: O,
    answer: OverrideAnswer<O, S>,
    options: OverrideOptions = {},
  ): void {
    const list = this.entries.get(operationId) ?? [];
    list.push({
      answer: answer as Entry['answer'],
      remaining: options.nth !== undefined ? 1 : (options.times ?? Infinity),
      skip: options.nth !== undefined ? options.nth - 1 : 0,
    });
    this.entries.set(operationId, list);
  }

  /** The answer for this call of `operationId`, if an override claims it. */
  take(operationId: string): Entry['answer'] | undefined {
    const list = this.entries.get(operationId);
    if (!list) return undefined;
    for (const entry of list) {
      if (entry.skip > 0) {
        entry.skip--;
        continue;
      }
      if (entry.remaining <= 0) continue;
      entry.remaining--;
      return entry.answer;
    }
    return undefined;
  }

  clear(): void {
    this.entries.clear();
  }
}
