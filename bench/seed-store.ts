import { writeFile } from 'node:fs/promises';
import type { Dataset, UserRecord, UserStatus } from '../core/domain/dataset.js';
import { buildSeedDataset } from '../core/domain/seed-dataset.js';
import { toUserDto } from '../core/domain/user-dto.js';
import { createScryptPasswordHasher } from '../node-runtime/scrypt-password-hasher.js';
import { DEMO_ADMIN_PASSWORD, DEMO_USER_PASSWORD } from '../node-runtime/server-config.js';

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Ken', 'Margaret', 'Linus', 'Radia'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Thompson', 'Hamilton'];
const STATUSES: readonly UserStatus[] = ['ACTIVE', 'ACTIVE', 'ACTIVE', 'INACTIVE', 'BLOCKED'];

/** The demo data set with the documented demo passwords (scrypt-hashed, so built once). */
export function demoDataset(): Promise<Dataset> {
  return buildSeedDataset('demo', {
    passwords: createScryptPasswordHasher(),
    demoPasswords: { admin: DEMO_ADMIN_PASSWORD, user: DEMO_USER_PASSWORD },
    now: new Date(),
  });
}

/**
 * The demo data set (its orders, items and the two login accounts) grown to `users` users, as
 * the reference server's store file holds it. The added users carry a real scrypt hash (the
 * demo user's) so that the file, and parsing it, is as large as a store of people who can log in.
 *
 * @example
 * const dataset = benchDataset(await demoDataset(), 100_000);
 */
export function benchDataset(demo: Dataset, users: number): Dataset {
  const dataset = structuredClone(demo);
  const hash = dataset.users['2']?.passwordHash ?? null;
  const time = dataset.createdAt;
  for (let id = dataset.counters.users + 1; id <= users; id++) {
    const record: UserRecord = {
      id,
      name: `${FIRST[id % FIRST.length]} ${LAST[id % LAST.length]} ${id}`,
      email: `bench.user.${id}@example.com`,
      age: 18 + (id % 70),
      status: STATUSES[id % STATUSES.length] as UserStatus,
      createdAt: time,
      updatedAt: time,
      roleIds: [1],
      passwordHash: hash,
    };
    dataset.users[String(id)] = record;
  }
  dataset.counters.users = Math.max(dataset.counters.users, users);
  return dataset;
}

/** Writes the reference server's store file (compact JSON, as DurableJsonFile writes it). */
export async function writeReferenceStore(file: string, dataset: Dataset): Promise<void> {
  await writeFile(file, JSON.stringify(dataset));
}

/**
 * Writes a json-server database holding the same users (their wire shape, as json-server would
 * serve them): `{ "users": [...] }`, pretty-printed as json-server itself writes it.
 */
export async function writeJsonServerStore(file: string, dataset: Dataset): Promise<void> {
  const users = Object.values(dataset.users).map(toUserDto);
  await writeFile(file, JSON.stringify({ users }, null, 2));
}
