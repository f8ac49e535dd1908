import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../core/domain/dataset.js';
import { seededRandom } from '../../spec/schema/seeded-random.js';
import { listAllUsers, login } from './api-calls.js';
import { startCliServer, type CliServer } from './cli-server.js';
import { checkFileInvariants, CrashModel } from './crash-model.js';
import { runCrashLoad } from './crash-workload.js';

/*
 * The contract's durability promise, tested the hard way: a real `apikit serve` process under
 * concurrent mixed writes (creates, PUTs, PATCHes, deletes that cascade, orders with items) is
 * killed with SIGKILL (no drain, no flush) at a random moment. The file it leaves must parse,
 * hold every acknowledged write, hold each write cut off by the kill either whole or not at
 * all, and let the next process go on without reusing an id.
 */

/**
 * Kill-restart rounds (the hardening issue's number). Each costs one start of the CLI, which
 * dominates a round (mostly module loading): 0.6-1.7 s per start, 45-47 s for the 20 rounds on a
 * 2-core machine at load average 9.
 */
const CRASH_ROUNDS = 20;
/** Workers writing at once, each to its own users. */
const WORKERS = 16;
/**
 * The kill comes this long after the round's first acknowledgement (ms, from a seeded PRNG):
 * timed from the first answer rather than the first request, every round dies with writes in
 * flight and some acknowledged, however slow a loaded machine makes the first requests.
 */
const KILL_DELAY_MS = { min: 50, max: 400 } as const;
/** A server that acknowledges nothing for this long is killed anyway (ms). */
const FIRST_ACK_DEADLINE_MS = 5_000;
/** Generous: a round on a loaded 2-core CI machine can take three times what it takes idle. */
const TEST_TIMEOUT_MS = 20 * CRASH_ROUNDS * 1_000;
const SEED = 20_251_121;

const env = {
  APIKIT_ADMIN_PASSWORD: 'crash-admin-password',
  APIKIT_USER_PASSWORD: 'crash-user-password',
  APIKIT_JWT_SECRET: 'crash-durability-secret-crash-durability-secret-0123',
};

let dir: string;
let dbFile: string;
let server: CliServer | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'apikit-crash-'));
  dbFile = join(dir, 'db.json');
});

afterAll(async () => {
  await server?.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

async function readDataset(): Promise<Dataset> {
  const text = await readFile(dbFile, 'utf8');
  // Straight JSON.parse: a torn or half-written file fails here, with its length for the report.
  try {
    return JSON.parse(text) as Dataset;
  } catch (error) {
    throw new Error(`${dbFile} (${text.length} bytes) is not JSON after SIGKILL: ${error}`);
  }
}

/** The model's users dealt round-robin to the workers: each user has one writer. */
function deal(model: CrashModel): number[][] {
  const owned: number[][] = Array.from({ length: WORKERS }, () => []);
  [...model.users.keys()].forEach((id, i) => owned[i % WORKERS]?.push(id));
  return owned;
}

/** Kills `live` with SIGKILL `delay` ms after `arm()` is first called, or at the deadline. */
function killSwitch(live: CliServer, delay: number) {
  let killed = false;
  let armed = false;
  let fire = () => {};
  const dead = new Promise<void>((resolve) => {
    fire = () => {
      if (killed) return;
      killed = true;
      live.kill('SIGKILL').then(resolve, resolve);
    };
  });
  const deadline = setTimeout(fire, FIRST_ACK_DEADLINE_MS);
  return {
    killed: () => killed,
    arm: () => {
      if (!armed) setTimeout(fire, delay);
      armed = true;
    },
    dead: dead.then(() => clearTimeout(deadline)),
  };
}

describe('crash durability of the JSON store (SIGKILL under concurrent mixed writes)', () => {
  it(
    `keeps every acknowledged write, nothing half-applied, no id reused, across ${CRASH_ROUNDS} kills`,
    async () => {
      const random = seededRandom(SEED);
      const model = new CrashModel();
      const started = Date.now();
      server = await startCliServer({ dbFile, env });
      const token = await login(server.api, 'admin@example.com', env.APIKIT_ADMIN_PASSWORD);
      const seed = await readDataset();
      const seedUserIds = new Set(Object.keys(seed.users).map(Number));
      /** Every id the test ever saw created: none may be handed out twice. */
      const everUsers = new Set<number>(seedUserIds);
      const everOrders = new Set<number>(Object.keys(seed.orders).map(Number));
      let floor = seed.counters;
      const totals = { acked: 0, cut: 0, applied: 0 };
      const log: string[] = [];

      for (let round = 1; round <= CRASH_ROUNDS; round += 1) {
        const live: CliServer = server;
        const delay = random.int(KILL_DELAY_MS.min, KILL_DELAY_MS.max);
        const kill = killSwitch(live, delay);
        const load = await runCrashLoad({
          api: live.api,
          token,
          round,
          random,
          model,
          owned: deal(model),
          stopped: kill.killed,
          onAcknowledged: kill.arm,
        });
        await kill.dead;
        expect(live.child.signalCode, 'the child died of the SIGKILL').toBe('SIGKILL');
        expect(load.unexpected, `round ${round}: unexpected answers`).toEqual([]);

        // 1. The file parses, holds every acknowledged write, and each cut one whole or not at all.
        const data = await readDataset();
        const { problems, adopted, applied } = model.reconcile(data, load.cut, seedUserIds);
        expect(problems, `round ${round}`).toEqual([]);
        expect(checkFileInvariants(data, seed), `round ${round}`).toEqual([]);
        // 2. Every id created in this round is new: above the counters before it, never seen.
        for (const id of [...load.createdUsers, ...adopted.users]) {
          expect(id, `round ${round}: user id reused`).toBeGreaterThan(floor.users);
          expect(everUsers.has(id), `round ${round}: user id ${id} handed out twice`).toBe(false);
          everUsers.add(id);
        }
        for (const id of [...load.createdOrders, ...adopted.orders]) {
          expect(id, `round ${round}: order id reused`).toBeGreaterThan(floor.orders);
          expect(everOrders.has(id), `round ${round}: order id ${id} handed out twice`).toBe(false);
          everOrders.add(id);
        }
        expect(data.counters.users).toBeGreaterThanOrEqual(floor.users);
        expect(data.counters.orders).toBeGreaterThanOrEqual(floor.orders);

        // 3. A new process on the same file serves exactly that file through the API.
        const restart = Date.now();
        server = await startCliServer({ dbFile, env });
        const restartMs = Date.now() - restart;
        const listed = await listAllUsers(server.api, token);
        expect(listed.size).toBe(Object.keys(data.users).length);
        for (const user of model.users.values()) {
          const served = listed.get(user.id);
          expect(served && { name: served.name, email: served.email, age: served.age }).toEqual({
            name: user.name,
            email: user.email,
            age: user.age,
          });
        }
        const acked = Object.values(load.acked).reduce((a, b) => a + b, 0);
        totals.acked += acked;
        totals.cut += load.cut.length;
        totals.applied += applied;
        // A kill mid-flush leaves a temp file; the new process sweeps it before it listens.
        const leftovers = (await readdir(dir)).filter((name) => name.endsWith('.tmp')).length;
        expect(leftovers, `round ${round}: temp files after the restart`).toBe(0);
        log.push(
          `round ${round}: killed ${delay} ms after the first ack; acked ${JSON.stringify(load.acked)}, ` +
            `${load.cut.length} cut (${applied} whole in the file, the rest absent), ` +
            `${model.users.size} users live, ${leftovers} temp files after it, restart ${restartMs} ms`,
        );
        floor = data.counters;
      }

      expect(totals.acked, 'the load never got a write acknowledged').toBeGreaterThan(0);
      console.info(
        [
          ...log,
          `${CRASH_ROUNDS} rounds survived, ${totals.acked} acknowledged writes checked, ` +
            `${totals.cut} cut by the kill (${totals.applied} found whole in the file, none half-applied), ` +
            `${((Date.now() - started) / 1000).toFixed(1)} s`,
        ].join('\n'),
      );
    },
    TEST_TIMEOUT_MS,
  );
});
