import { StoreUnavailableError } from '../../../core/domain/store.js';

/** SQLSTATEs after which a transaction is run again from the start. */
const RETRIED = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '23505', // unique_violation: run again, the domain's own check then sees the other row
  '23P01', // exclusion_violation: the same for the email (a hash exclusion constraint)
]);

/**
 * SQLSTATEs meaning "the database cannot serve this right now": 503, not a bug. Besides the
 * classes 08 (connection exception) and 53 (insufficient resources: disk full, out of memory,
 * too many connections), which {@link isUnavailable} takes whole.
 */
const UNAVAILABLE_CODES = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down, in recovery)
  '25006', // read_only_sql_transaction: a standby answered (a failover under way)
  // Timeouts an operator sets on apikit's role or database (statement_timeout, lock_timeout),
  // or a statement a DBA cancelled: busy, and the next request may well pass.
  '57014', // query_canceled
  '55P03', // lock_not_available
]);

/** Node's socket errors and node-postgres's own messages for a lost or missing connection. */
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOENT', // a unix socket that is not there (the server is down)
]);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Cannot use a pool after calling end',
  'Client was closed and is not queryable',
  'Connection ended unexpectedly',
];

/** The SQLSTATE of a database error, if it is one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** Whether a transaction that failed with `error` should simply be run again. */
export function isRetryable(error: unknown): boolean {
  const state = sqlState(error);
  return state !== undefined && RETRIED.has(state);
}

/**
 * Whether `error` is a unique (or exclusion) violation: a race the next run resolves, or, when
 * it persists, a transaction that writes a duplicate without checking (a bug: 500, not 503).
 */
export function isUniqueViolation(error: unknown): boolean {
  const state = sqlState(error);
  return state === '23505' || state === '23P01';
}

/** Whether `error` says the database is out of reach (down, restarting, pool exhausted). */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const state = sqlState(error);
  if (state !== undefined) {
    return UNAVAILABLE_CODES.has(state) || state.startsWith('08') || state.startsWith('53');
  }
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && UNAVAILABLE_ERRNOS.has(code)) return true;
  if (error instanceof AggregateError && error.errors.some(isUnavailable)) return true;
  return UNAVAILABLE_MESSAGES.some((text) => error.message.includes(text));
}

/**
 * Whether `error` says an open connection was lost (the database restarted or dropped it while
 * it sat idle in the pool): worth one more try on a fresh connection. Not a refused connection
 * or a pool timeout: trying again at once would only double the wait.
 */
export function isLostConnection(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code === '57P01' || code === '57P02' || code === 'ECONNRESET' || code === 'EPIPE')
    return true;
  return (
    error.message.includes('Connection terminated') ||
    error.message.includes('Client has encountered a connection error')
  );
}

/**
 * What the domain sees of a database failure: an unreachable database becomes
 * {@link StoreUnavailableError} (the pipeline answers 503 with Retry-After); anything else is
 * rethrown as it is (a bug: 500).
 */
export function toStoreError(error: unknown): unknown {
  if (error instanceof StoreUnavailableError || !isUnavailable(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new StoreUnavailableError(`the database is unavailable: ${reason}`, 1, { cause: error });
}

/** Serialization failures that outlived every retry: busy, not broken (503, try again). */
export function tooManyConflicts(error: unknown, attempts: number): StoreUnavailableError {
  return new StoreUnavailableError(
    `the transaction conflicted with concurrent ones ${attempts} times`,
    1,
    { cause: error },
  );
}
