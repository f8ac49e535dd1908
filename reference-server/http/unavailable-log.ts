import type { Repository } from '../../core/repository/repository.js';
import { logSafeError } from './log-safe-error.js';

/** At most one line per this many milliseconds while the store stays unavailable. */
export const UNAVAILABLE_LOG_EVERY_MS = 10_000;

/** The log lines of one outage of the store: from its first 503 to its first answer again. */
export interface StoreOutageLog {
  /** A request got 503 (the store is unavailable): a `warn` line, at most one per 10 s. */
  unavailable(error: unknown, requestId: string): void;
  /** The outage going on (a token for `answered`), or undefined while the store answers. */
  current(): number | undefined;
  /**
   * A store call begun during outage `token` succeeded: the outage is over, said once in a
   * `warn` line with how long it lasted. A call begun before the outage proves nothing.
   */
  answered(token: number | undefined): void;
}

/**
 * Why requests got 503, for the log: a `warn` line with the store's reason (the database
 * refused the connection, the disk is full), at most one per 10 s however many requests fail
 * meanwhile, each line counting the 503s it stands for. When a store call begun after the
 * first 503 succeeds, one `warn` line says the store is available again: for how long it was
 * not (from the first 503 to that answer) and how many requests got 503 in all.
 *
 * @example
 * const outage = storeOutageLog(log);
 * outage.unavailable(new StoreUnavailableError('...'), 'req-1');
 * const repository = watchAvailability(opened.repository, outage, { reads: true });
 */
export function storeOutageLog(
  log: (line: Record<string, unknown>) => void,
  now: () => number = Date.now,
): StoreOutageLog {
  let lastAt = -Infinity;
  let since = 0;
  /** When the outage going on began (its first 503), and its 503s so far. */
  let outage: { from: number; requests: number } | undefined;
  return {
    unavailable(error, requestId) {
      since += 1;
      outage ??= { from: now(), requests: 0 };
      outage.requests += 1;
      if (now() - lastAt < UNAVAILABLE_LOG_EVERY_MS) return;
      lastAt = now();
      log({
        time: new Date(lastAt).toISOString(),
        level: 'warn',
        msg: 'store unavailable: answering 503',
        requestId,
        requests: since,
        error: logSafeError(withCause(error)),
      });
      since = 0;
    },
    current: () => outage?.from,
    answered(token) {
      if (token === undefined || outage === undefined || token !== outage.from) return;
      const at = now();
      log({
        time: new Date(at).toISOString(),
        level: 'warn',
        msg: 'store available again',
        unavailableSeconds: Math.round((at - outage.from) / 100) / 10,
        requests: outage.requests,
      });
      outage = undefined;
      lastAt = -Infinity;
      since = 0;
    },
  };
}

/**
 * {@link storeOutageLog}'s `unavailable` alone.
 *
 * @example
 * const onUnavailable = unavailableLog(log);
 * onUnavailable(new StoreUnavailableError('...'), 'req-1');
 */
export function unavailableLog(
  log: (line: Record<string, unknown>) => void,
  now: () => number = Date.now,
): (error: unknown, requestId: string) => void {
  return storeOutageLog(log, now).unavailable;
}

/** Reader methods: answered by PostgreSQL, but by memory on the file store. */
const WRITES: ReadonlySet<PropertyKey> = new Set(['transact']);

/**
 * The repository, telling `outage` when a call begun during an outage succeeds. `reads: false`
 * (the file store, whose reads are answered from memory while its disk fails) counts only
 * transactions; PostgreSQL answers every call itself. Outside an outage a call costs one
 * comparison more.
 *
 * @example
 * const repository = watchAvailability(opened.repository, outage, { reads: true });
 */
export function watchAvailability(
  repository: Repository,
  outage: Pick<StoreOutageLog, 'current' | 'answered'>,
  options: { reads: boolean },
): Repository {
  const watched = { ...repository } as Record<PropertyKey, unknown>;
  for (const [name, method] of Object.entries(repository) as [string, unknown][]) {
    if (typeof method !== 'function' || name === 'close') continue;
    if (!options.reads && !WRITES.has(name)) continue;
    watched[name] = async (...args: unknown[]) => {
      const token = outage.current();
      const value: unknown = await (method as (...a: unknown[]) => Promise<unknown>).apply(
        repository,
        args,
      );
      if (token !== undefined) outage.answered(token);
      return value;
    };
  }
  return watched as unknown as Repository;
}

/** The store's error names the symptom; its cause (the driver's error) names the reason. */
function withCause(error: unknown): unknown {
  if (!(error instanceof Error) || error.cause === undefined) return error;
  return new Error(`${error.message}: ${logSafeError(error.cause)}`);
}
