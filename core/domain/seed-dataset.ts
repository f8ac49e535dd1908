import type { Dataset } from './dataset.js';
import { buildDemoDataset, type DemoDataOptions } from './demo-data.js';
import type { PasswordHasher } from './ports.js';

/** What a new store (or a reset) starts from: the demo data, or only the two login accounts. */
export type SeedKind = 'demo' | 'empty';

/**
 * A data set of the caller's own (`apikit serve --data FILE`, `createMockApi({ data })`),
 * checked against the contract already; built anew (passwords hashed) for every seed and reset.
 */
export interface OwnDataSeed {
  /** Where it came from, for messages (a file name, or "the data set"). */
  label: string;
  build(options: { passwords: PasswordHasher; now: Date }): Promise<Dataset>;
}

/** Every seed a store can start from. */
export type SeedSource = SeedKind | OwnDataSeed;

/**
 * The data set a new store is seeded with. `empty` keeps only the demo's two login accounts
 * (without them nobody could log in, let alone reach `/admin`), so the counters sit at 2, 0, 0.
 *
 * @example
 * const seed = await buildSeedDataset('empty', { passwords, demoPasswords, now: new Date() });
 */
export async function buildSeedDataset(
  kind: SeedSource,
  options: DemoDataOptions,
): Promise<Dataset> {
  if (typeof kind === 'object')
    return kind.build({ passwords: options.passwords, now: options.now });
  const demo = await buildDemoDataset(options);
  if (kind === 'demo') return demo;
  const logins = Object.values(demo.users).filter((user) => user.passwordHash !== null);
  return {
    ...demo,
    counters: { users: Math.max(0, ...logins.map((user) => user.id)), orders: 0, orderItems: 0 },
    users: Object.fromEntries(logins.map((user) => [String(user.id), user])),
    orders: {},
    orderItems: {},
  };
}
