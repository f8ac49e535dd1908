import pg from 'pg';
import { CLAIM_OWNER_LOCK } from './migrate.js';
import { POOL_DEFAULTS, type PostgresPoolOptions } from './postgres-pool.js';

/** This instance as a holder of Idempotency-Key claims. */
export interface ClaimOwner {
  /** The number its claims record (`idempotency.owner`). */
  readonly id: number;
  /** Ends the session holding the lock: its claims are then free to every other instance. */
  close(): Promise<void>;
}

/** Connections an instance holds besides its pool: the session of its lock. */
export const CLAIM_OWNER_CONNECTIONS = 1;
/** Pause before taking the lock again on a new session, after the database dropped it. */
export const RETAKE_MS = 1_000;
/** Numbers tried at start before giving up: another live session holds each one taken. */
const NUMBERS_TRIED = 100;

/**
 * Takes a number for this instance (`apikit_claim_owners`, migration 0004) and holds the
 * advisory lock (CLAIM_OWNER_LOCK, number) on a session of its own, outside the pool, for as
 * long as the process lives: one connection more per instance. When the process dies, however
 * abruptly, its socket closes, PostgreSQL ends the session and the lock goes with it; another
 * instance then finds the lock free and takes the dead one's claims at once (decision 0109).
 *
 * When the database drops the session while the process lives (a restart, a network cut), the
 * lock is taken again on a new session every second. Meanwhile other instances take this one
 * for gone and may take its claims over; its writes under those claims then roll back
 * (`settleIdempotency` finds the claim changed) and are answered 409, so nothing runs twice.
 *
 * @example
 * const owner = await holdClaimOwner({ connectionString });
 * createPostgresRepository(pool, {}, owner);
 */
export async function holdClaimOwner(options: PostgresPoolOptions): Promise<ClaimOwner> {
  const first = await connect(options);
  let id: number | undefined;
  try {
    for (let tries = 0; tries < NUMBERS_TRIED && id === undefined; tries += 1) {
      const { rows } = await first.query<{ id: number }>(
        "SELECT nextval('apikit_claim_owners')::integer AS id",
      );
      // A number taken again (the sequence cycled, or was restarted) while its holder lives.
      if (await takeLock(first, rows[0]!.id)) id = rows[0]!.id;
    }
  } catch (error) {
    await first.end().catch(() => undefined);
    throw error;
  }
  if (id === undefined) {
    await first.end().catch(() => undefined);
    throw new Error(`no free claim-owner number after ${NUMBERS_TRIED} tries`);
  }
  return keepHolding(options, first, id);
}

/** Holds the lock on `session`, and on a new one whenever the database drops it. */
function keepHolding(options: PostgresPoolOptions, session: pg.Client, id: number): ClaimOwner {
  let current: pg.Client | undefined = session;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watch = (client: pg.Client) => {
    const lost = () => {
      if (current !== client) return;
      current = undefined;
      client.end().catch(() => undefined);
      retakeLater();
    };
    client.on('error', lost);
    client.on('end', lost);
  };
  const retakeLater = () => {
    if (closed) return;
    timer = setTimeout(() => void retake(), RETAKE_MS);
    timer.unref();
  };
  const retake = async () => {
    let client: pg.Client | undefined;
    try {
      client = await connect(options);
      if (!closed && (await takeLock(client, id))) {
        current = client;
        watch(client);
        return;
      }
    } catch {
      // Still unreachable: try again later.
    }
    await client?.end().catch(() => undefined);
    retakeLater();
  };
  watch(session);
  return {
    id,
    async close() {
      closed = true;
      clearTimeout(timer);
      const ending = current;
      current = undefined;
      await ending?.end().catch(() => undefined);
    },
  };
}

async function connect(options: PostgresPoolOptions): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: options.connectionString,
    connectionTimeoutMillis:
      options.connectionTimeoutMillis ?? POOL_DEFAULTS.connectionTimeoutMillis,
    application_name: `${options.applicationName ?? 'apikit'} claims`,
    keepAlive: true,
  });
  // Errors before `watch` (a failed connect) are the caller's to handle, not a crash.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

async function takeLock(client: pg.Client, id: number): Promise<boolean> {
  const { rows } = await client.query<{ held: boolean }>(
    'SELECT pg_try_advisory_lock($1, $2) AS held',
    [CLAIM_OWNER_LOCK, id],
  );
  return rows[0]?.held === true;
}
