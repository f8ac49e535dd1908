import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../core/domain/dataset.js';
import { login } from './api-calls.js';
import { startCliServer, type CliServer } from './cli-server.js';
import { describeTally, runCrashRounds } from './keyed-crash-rounds.js';

/*
 * Issue 31, item 3 (decision 0109): Idempotency-Key means exactly once across crashes. A real
 * `apikit serve` on the JSON file takes keyed creates of orders and users from 16 clients and
 * is killed with SIGKILL mid-load; started again on the same file, every request without an
 * answer is sent again with its key and body. No key may have created twice, none nothing,
 * and none may wait out a claim's lease: the claims of the dead process are free at once.
 */

const ROUNDS = 3;
const PER_ROUND = 240;

const env = {
  APIKIT_ADMIN_PASSWORD: 'keyed-crash-admin-password',
  APIKIT_USER_PASSWORD: 'keyed-crash-user-password',
  APIKIT_JWT_SECRET: 'keyed-crash-secret-keyed-crash-secret-keyed-crash-0123',
};

let dir: string;
let server: CliServer | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'apikit-keyed-crash-'));
});

afterAll(async () => {
  await server?.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

describe('Idempotency-Key across SIGKILL on the JSON file', () => {
  it(`creates every keyed order and user exactly once across ${ROUNDS} kills`, async () => {
    const dbFile = join(dir, 'db.json');
    const start = () => startCliServer({ dbFile, env, args: ['--data', 'empty'] });
    server = await start();
    const token = await login(server.api, 'admin@example.com', env.APIKIT_ADMIN_PASSWORD);
    const tally = await runCrashRounds({
      token,
      tag: 'file',
      rounds: ROUNDS,
      perRound: PER_ROUND,
      target: {
        api: () => server!.api,
        kill: () => server!.kill('SIGKILL'),
        claimsLeft: async () => {
          const data = JSON.parse(await readFile(dbFile, 'utf8')) as Dataset;
          return Object.values(data.idempotency).filter((record) => record.status === 0).length;
        },
        afterKill: async () => {
          server = await start();
        },
        afterRetries: async () => undefined,
      },
    });
    console.info(describeTally('JSON file', tally));
    expect(tally.cut, 'the kills cut requests off').toBeGreaterThan(0);
    expect(tally.claimsLeft, 'and left their claims held').toBeGreaterThan(0);
    expect(tally.unanswered).toEqual([]);
    expect(tally.verdict).toEqual({ duplicates: [], lost: [], mismatched: [] });
    expect(tally.replaysDiffering).toEqual([]);
    // The dead process's claims are free at once: no retry waits for a lease.
    expect(tally.retriedInUse).toBe(0);
  }, 180_000);
});
