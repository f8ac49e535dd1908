import { authJson } from '../../durability/api-calls.js';

/** One answer the load got, with when it was sent and received (ms, performance.now()). */
export interface LoadAnswer {
  method: string;
  path: string;
  status: number;
  contentType: string;
  retryAfter: string | null;
  sentAt: number;
  receivedAt: number;
}

/** A user the load created (201), and what it then learnt of its fate. */
export interface LoadUser {
  id: number;
  email: string;
  name: string;
  /** The name of a PATCH answered 200; the stored name must be it. */
  patched?: string;
  /** The name of a PATCH answered 503: applied or not, either name may be stored. */
  maybePatched?: string;
  /** DELETE answered 204 (gone for good) or 503 (gone or not). */
  deleted?: 'yes' | 'maybe';
}

/** What a bounded write load saw. */
export interface LoadRecord {
  answers: LoadAnswer[];
  /** Requests that got no HTTP answer at all (a cut connection or the deadline). */
  unanswered: string[];
  users: LoadUser[];
}

export interface WriteLoadOptions {
  api: string;
  token: string;
  workers: number;
  /** Requests each worker sends at most (the load's bound). */
  maxRequestsPerWorker: number;
  /** Each request's deadline (ms). */
  timeoutMs: number;
  /** Read before every request: true ends the worker. */
  stop: () => boolean;
  /** Pause after a 503 (ms), as a client that honours Retry-After but is impatient. */
  pauseAfter503Ms: number;
}

/**
 * A handful of clients writing at once through the API: each creates a user (POST), renames
 * it (PATCH), and deletes every third one (DELETE), then starts over; a 503 abandons that user
 * (its outcome is unknown) and starts over after a pause. Every answer is kept with its
 * timing, every acknowledged write in `users`, so that a test can read them back.
 *
 * @example
 * const record = runWriteLoad({ api, token, workers: 6, maxRequestsPerWorker: 100, ... });
 */
export function runWriteLoad(options: WriteLoadOptions): {
  record: LoadRecord;
  done: Promise<void>;
} {
  const record: LoadRecord = { answers: [], unanswered: [], users: [] };
  const send = async (method: string, path: string, body?: unknown) => {
    const sentAt = performance.now();
    try {
      const res = await fetch(`${options.api}${path}`, {
        method,
        headers: authJson(options.token),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const text = await res.text();
      record.answers.push({
        method,
        path,
        status: res.status,
        contentType: res.headers.get('content-type') ?? '',
        retryAfter: res.headers.get('retry-after'),
        sentAt,
        receivedAt: performance.now(),
      });
      return { status: res.status, body: text ? (JSON.parse(text) as { id?: number }) : {} };
    } catch (error) {
      record.unanswered.push(`${method} ${path}: ${String((error as Error).cause ?? error)}`);
      return { status: 0, body: {} };
    }
  };
  const worker = async (w: number) => {
    let sent = 0;
    let step = 0;
    const pause = () => new Promise((resolve) => setTimeout(resolve, options.pauseAfter503Ms));
    while (sent < options.maxRequestsPerWorker && !options.stop()) {
      step += 1;
      const email = `outage-${w}-${step}@example.com`;
      const name = `Load ${w} ${step}`;
      sent += 1;
      const created = await send('POST', '/users', { name, email });
      if (created.status !== 201 || typeof created.body.id !== 'number') {
        await pause();
        continue;
      }
      const user: LoadUser = { id: created.body.id, email, name };
      record.users.push(user);
      if (sent >= options.maxRequestsPerWorker || options.stop()) break;
      sent += 1;
      const renamed = `${name} renamed`;
      const patch = await send('PATCH', `/users/${user.id}`, { name: renamed });
      if (patch.status === 200) user.patched = renamed;
      else {
        user.maybePatched = renamed;
        await pause();
        continue;
      }
      if (step % 3 !== 0 || sent >= options.maxRequestsPerWorker || options.stop()) continue;
      sent += 1;
      const deleted = await send('DELETE', `/users/${user.id}`);
      user.deleted = deleted.status === 204 ? 'yes' : 'maybe';
      if (deleted.status !== 204) await pause();
    }
  };
  const done = Promise.all(Array.from({ length: options.workers }, (_, w) => worker(w))).then(
    () => undefined,
  );
  return { record, done };
}

/** How many writes of the load were acknowledged (201, 200 and 204 answers). */
export function acknowledgedWrites(record: LoadRecord): number {
  return record.answers.filter((a) => a.status === 201 || a.status === 200 || a.status === 204)
    .length;
}

/**
 * Every acknowledged write that the API does not show now: a created user that is missing,
 * a rename answered 200 whose name is not stored, a user deleted with 204 that is still there.
 * Writes answered 503 may or may not have happened, and either is accepted.
 */
export async function lostWrites(api: string, token: string, users: LoadUser[]): Promise<string[]> {
  const lost: string[] = [];
  for (const user of users) {
    const res = await fetch(`${api}/users/${user.id}`, {
      headers: authJson(token),
      signal: AbortSignal.timeout(10_000),
    });
    if (res.status === 404) {
      if (user.deleted === undefined) lost.push(`user ${user.id} (${user.email}) is missing`);
      continue;
    }
    if (res.status !== 200) {
      lost.push(`GET /users/${user.id}: ${res.status}`);
      continue;
    }
    const seen = (await res.json()) as { email: string; name: string };
    if (user.deleted === 'yes') lost.push(`user ${user.id} was deleted (204) but is still there`);
    if (seen.email !== user.email) lost.push(`user ${user.id}: email ${seen.email}`);
    const names = user.patched
      ? [user.patched]
      : [user.name, ...(user.maybePatched ? [user.maybePatched] : [])];
    if (!names.includes(seen.name)) lost.push(`user ${user.id}: name ${seen.name}, not ${names}`);
  }
  return lost;
}
