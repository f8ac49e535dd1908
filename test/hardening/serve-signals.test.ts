import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Dataset } from '../../core/domain/dataset.js';
import { authJson, login, REQUEST_TIMEOUT_MS } from '../durability/api-calls.js';
import { startCliServer, type CliServer } from '../durability/cli-server.js';

/*
 * `apikit serve` stopped by SIGTERM or SIGINT while 16 clients keep writing: it drains and
 * exits 0; every request is answered 201 or 503, or refused at the connection (refused, or an
 * idle keep-alive connection closed under it), and then it was never applied; every 201 is in
 * the file. Needs `npm run build`.
 */

const WORKERS = 16;
/** The signal comes once this many writes were acknowledged. */
const ACKS_BEFORE_SIGNAL = 40;
/** Each worker stops after this many requests, whatever happens (a bound, not a target). */
const MAX_REQUESTS_PER_WORKER = 500;

const env = {
  APIKIT_ADMIN_PASSWORD: 'signal-admin-password',
  APIKIT_USER_PASSWORD: 'signal-user-password',
  APIKIT_JWT_SECRET: 'signal-secret-signal-secret-signal-secret-0123456789',
};

let dir: string | undefined;
let server: CliServer | undefined;

afterEach(async () => {
  await server?.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('apikit serve on SIGTERM and SIGINT', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s under load: drains, exits 0, loses no acknowledged write',
    async (signal) => {
      dir = await mkdtemp(join(tmpdir(), 'apikit-signal-'));
      const dbFile = join(dir, 'db.json');
      const live = await startCliServer({ dbFile, env });
      server = live;
      const token = await login(live.api, 'admin@example.com', env.APIKIT_ADMIN_PASSWORD);
      const acknowledged: { id: number; email: string }[] = [];
      const statuses = new Map<number, number>();
      const cut: string[] = [];
      /** Requests that got no answer: the server must never have applied them. */
      const cutEmails: string[] = [];
      let signalled = false;

      const worker = async (w: number) => {
        for (let n = 0; n < MAX_REQUESTS_PER_WORKER; n += 1) {
          const email = `${signal.toLowerCase()}-${w}-${n}@example.com`;
          let res: Response;
          try {
            res = await fetch(`${live.api}/users`, {
              method: 'POST',
              headers: authJson(token),
              body: JSON.stringify({ name: `Signal ${w}`, email }),
              signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
            });
          } catch (error) {
            // Refused or closed at the connection level: only acceptable once draining began.
            cutEmails.push(email);
            cut.push(
              `${signalled ? 'after' : 'BEFORE'} the signal: ${(error as Error).cause ?? error}`,
            );
            return;
          }
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const body = (await res.json()) as { id: number; email: string };
          if (res.status === 201) acknowledged.push({ id: body.id, email });
          if (res.status === 503) return;
          if (!signalled && acknowledged.length >= ACKS_BEFORE_SIGNAL) {
            signalled = true;
            live.child.kill(signal);
          }
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
      await live.exited;

      expect(signalled, 'the load reached the signal').toBe(true);
      expect(live.child.exitCode, live.stderr()).toBe(0);
      expect(live.stderr()).toContain(`${signal}: draining in-flight requests`);
      expect([...statuses.keys()].filter((status) => status !== 201 && status !== 503)).toEqual([]);
      expect(cut.filter((line) => line.startsWith('BEFORE'))).toEqual([]);
      const onDisk = JSON.parse(await readFile(dbFile, 'utf8')) as Dataset;
      for (const ack of acknowledged) expect(onDisk.users[String(ack.id)]?.email).toBe(ack.email);
      const inFile = new Set(Object.values(onDisk.users).map((user) => user.email));
      expect(
        cutEmails.filter((email) => inFile.has(email)),
        'applied but never answered',
      ).toEqual([]);
      console.info(
        `${signal}: ${acknowledged.length} acknowledged (all in the file), ` +
          `${statuses.get(503) ?? 0} answered 503, ${cut.length} refused at the connection, exit 0 (${[...new Set(cut.map((line) => line.replace(/^after the signal: /, '')))].join('; ')})`,
      );
    },
    60_000,
  );
});
