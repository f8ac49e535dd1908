import { CliError } from '../cli-error.js';

/** Options of {@link waitForDatabase}. */
export interface DatabaseWaitOptions {
  /** How long to keep trying (seconds); 0 tries once. */
  waitSeconds: number;
  /** PostgreSQL's URL as it may be printed (no password); undefined: no database, one start. */
  redactedUrl: string | undefined;
  /** Where the waiting lines go (stderr). */
  say: (line: string) => void;
  /** The clock and the pause, replaceable in tests. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** First pause between attempts (ms), doubled up to {@link MAX_PAUSE_MS}. */
const FIRST_PAUSE_MS = 250;
const MAX_PAUSE_MS = 2_000;
/** A line at most this often while waiting (ms), besides the first. */
export const SAY_EVERY_MS = 10_000;
/** `--database-wait`'s default (seconds): docs/deploy.md quotes it. */
export const DATABASE_WAIT_DEFAULT_SECONDS = 30;

/** A store that could not be reached (StoreUnavailableError, by name: the CLI is a bundle). */
function isUnavailable(error: unknown): error is Error {
  return error instanceof Error && error.name === 'StoreUnavailableError';
}

/** An error PostgreSQL itself answered (a SQLSTATE code): a wrong password, no such database. */
function isDatabaseRefusal(error: unknown): error is Error & { code: string } {
  const code = (error as { code?: unknown } | undefined)?.code;
  return error instanceof Error && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/**
 * Starts what `start` starts (the server); on PostgreSQL, trying again while the database
 * cannot be reached (refused, starting up, too many connections: StoreUnavailableError) for at
 * most `waitSeconds`: a database and its service started together (compose, a reboot) need no
 * order between them. Nothing listens meanwhile, so a load balancer keeps sending elsewhere.
 * Then a CliError (exit 2) naming the reason. An error the database answered itself (a wrong
 * password, a missing database) is no outage: a CliError at once (decision 0089).
 *
 * @example
 * const server = await waitForDatabase(() => createServer(options), {
 *   waitSeconds: 30, redactedUrl: 'postgres://apikit:***@db/apikit', say: console.error });
 */
export async function waitForDatabase<T>(
  start: () => Promise<T>,
  options: DatabaseWaitOptions,
): Promise<T> {
  const now = options.now ?? Date.now;
  const sleep =
    options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  if (options.redactedUrl === undefined) return start();
  const deadline = now() + options.waitSeconds * 1000;
  let pause = FIRST_PAUSE_MS;
  let saidAt: number | undefined;
  for (;;) {
    try {
      return await start();
    } catch (error) {
      if (!isUnavailable(error)) {
        if (isDatabaseRefusal(error))
          throw new CliError(`PostgreSQL at ${options.redactedUrl} refused: ${error.message}`);
        throw error;
      }
      const left = deadline - now();
      if (left <= 0) {
        const waited = options.waitSeconds > 0 ? ` after waiting ${options.waitSeconds} s` : '';
        throw new CliError(
          `${error.message}${waited} (PostgreSQL at ${options.redactedUrl}); start it or check --database-url (--database-wait sets how long to wait)`,
        );
      }
      if (saidAt === undefined || now() - saidAt >= SAY_EVERY_MS) {
        saidAt = now();
        options.say(
          `waiting for PostgreSQL at ${options.redactedUrl} (${error.message}); giving up in ${Math.ceil(left / 1000)} s`,
        );
      }
      await sleep(Math.min(pause, left));
      pause = Math.min(pause * 2, MAX_PAUSE_MS);
    }
  }
}
