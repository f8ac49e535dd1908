import { logSafeError } from './log-safe-error.js';

/** At most one line per this many milliseconds while the store stays unavailable. */
const EVERY_MS = 10_000;

/**
 * Why requests got 503, for the log: a `warn` line with the store's reason (the database
 * refused the connection, the disk is full), at most one per 10 s however many requests fail
 * meanwhile, each line counting the 503s it stands for.
 *
 * @example
 * const onUnavailable = unavailableLog(log);
 * onUnavailable(new StoreUnavailableError('...'), 'req-1');
 */
export function unavailableLog(
  log: (line: Record<string, unknown>) => void,
  now: () => number = Date.now,
): (error: unknown, requestId: string) => void {
  let lastAt = -Infinity;
  let since = 0;
  return (error, requestId) => {
    since += 1;
    if (now() - lastAt < EVERY_MS) return;
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
  };
}

/** The store's error names the symptom; its cause (the driver's error) names the reason. */
function withCause(error: unknown): unknown {
  if (!(error instanceof Error) || error.cause === undefined) return error;
  return new Error(`${error.message}: ${logSafeError(error.cause)}`);
}
