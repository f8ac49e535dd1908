import type { Dataset } from '../../../core/domain/dataset.js';
import { createDatasetRepository } from '../../../core/repository/dataset-repository.js';
import type {
  AccessTokenClaims,
  AccessTokenCodec,
  DomainContext,
  PasswordHasher,
  Principal,
} from '../../../core/domain/ports.js';
import { MemoryStore } from './memory-store.js';
import { createDomainContext } from '../../../core/create-core.js';

/** A clock tests move by hand. */
export interface FakeClock {
  now(): Date;
  /** Moves the clock forward and returns the new time as ISO string. */
  advance(ms: number): string;
  /** The current time as an ISO string. */
  iso(): string;
}

/** The time test data sets and clocks start at. */
export const TEST_EPOCH = '2026-02-01T12:00:00.000Z';

/**
 * A fake clock starting at {@link TEST_EPOCH} (or `start`).
 *
 * @example
 * const clock = fakeClock(); clock.advance(1000);
 */
export function fakeClock(start = TEST_EPOCH): FakeClock {
  let current = Date.parse(start);
  return {
    now: () => new Date(current),
    advance: (ms) => new Date((current += ms)).toISOString(),
    iso: () => new Date(current).toISOString(),
  };
}

/**
 * Reversible, unsalted "hashing": fine for tests of the domain, useless for anything else.
 * `salted: true` adds a random salt, to show that only hashes differ between demo builds.
 */
export function fakePasswordHasher(options: { salted?: boolean } = {}): PasswordHasher {
  return {
    hash: async (password) =>
      `fake$${options.salted ? globalThis.crypto.randomUUID() : 'nosalt'}$${password}`,
    verify: async (password, stored) => stored.split('$').slice(2).join('$') === password,
  };
}

/** An access-token codec that "signs" by JSON-encoding: the domain tests never inspect it. */
export const stubTokenCodec: AccessTokenCodec = {
  sign: async (claims, ttlSeconds, now) => {
    const iat = Math.floor(now.getTime() / 1000);
    return JSON.stringify({ ...claims, iat, exp: iat + ttlSeconds });
  },
  verify: async (token) => JSON.parse(token) as AccessTokenClaims,
};

/** Callers for the rules that look at who is asking. */
export const ADMIN_PRINCIPAL: Principal = { userId: 1, isAdmin: true };
export const USER_PRINCIPAL: Principal = { userId: 2, isAdmin: false };

/** A domain context over a {@link MemoryStore}, with its clock and store exposed. */
export interface TestContext {
  ctx: DomainContext;
  store: MemoryStore;
  clock: FakeClock;
}

/**
 * A DomainContext for unit tests: memory store over a copy of `dataset`, fake clock, fake
 * hasher, stub token codec.
 *
 * @example
 * const { ctx, store, clock } = createTestContext(testDataset());
 */
export function createTestContext(
  dataset: Dataset,
  options: { clock?: FakeClock; passwords?: PasswordHasher } = {},
): TestContext {
  const store = new MemoryStore(dataset);
  const clock = options.clock ?? fakeClock();
  const ctx = createDomainContext(
    {
      repo: createDatasetRepository(store),
      clock: clock.now,
      passwords: options.passwords ?? fakePasswordHasher(),
      tokens: stubTokenCodec,
    },
    { demoPasswords: { admin: 'admin-pass', user: 'user-pass' } },
  );
  return { ctx, store, clock };
}
