import { createJwtAccessTokenCodec } from '../../../node-runtime/jwt-access-token-codec.js';
import { createDatasetRepository } from '../../../core/repository/dataset-repository.js';
import { createScryptPasswordHasher } from '../../../node-runtime/scrypt-password-hasher.js';
import { ApiProblem } from '../../../core/domain/api-problem.js';
import type { Dataset, UserRecord, UserStatus } from '../../../core/domain/dataset.js';
import type { AccessTokenCodec, DomainContext } from '../../../core/domain/ports.js';
import { createDomainContext } from '../../../core/create-core.js';
import { createAuthMemoryStore, type AuthMemoryStore } from './auth-memory-store.js';

export const TEST_SECRET = 'test-secret-of-at-least-32-bytes-for-hs256!';
export const PASSWORD = 'correct horse battery staple';
export const START = new Date('2030-01-01T00:00:00.000Z');

/** Login accounts of the fixture, by id. */
export const USERS = {
  admin: { id: 1, email: 'admin@example.com', roleIds: [1, 2], status: 'ACTIVE' },
  user: { id: 2, email: 'user@example.com', roleIds: [1], status: 'ACTIVE' },
  inactive: { id: 3, email: 'inactive@example.com', roleIds: [1], status: 'INACTIVE' },
  blocked: { id: 4, email: 'blocked@example.com', roleIds: [1], status: 'BLOCKED' },
  noPassword: { id: 5, email: 'api-made@example.com', roleIds: [1], status: 'ACTIVE' },
} as const satisfies Record<
  string,
  { id: number; email: string; roleIds: number[]; status: UserStatus }
>;

export interface AuthTestContext {
  ctx: DomainContext;
  store: AuthMemoryStore;
  codec: AccessTokenCodec;
  /** Moves the fake clock forward. */
  advance(seconds: number): void;
  user(id: number): UserRecord;
}

/** Cheap scrypt parameters: the same code path as production, a fraction of the cost. */
const hasher = createScryptPasswordHasher({ N: 2 ** 10, r: 8, p: 1 });
let passwordHash: Promise<string> | undefined;

/**
 * A fresh context over a small data set: the accounts of {@link USERS}, all with {@link PASSWORD}
 * except `noPassword`; a fake clock at {@link START}; 900 s access and 7 day refresh tokens.
 */
export async function createAuthTestContext(): Promise<AuthTestContext> {
  passwordHash ??= hasher.hash(PASSWORD);
  const hash = await passwordHash;
  const created = START.toISOString();
  const users: Dataset['users'] = {};
  for (const [key, spec] of Object.entries(USERS)) {
    users[String(spec.id)] = {
      ...spec,
      roleIds: [...spec.roleIds],
      name: `Test ${key}`,
      age: null,
      createdAt: created,
      updatedAt: created,
      passwordHash: key === 'noPassword' ? null : hash,
    };
  }
  const store = createAuthMemoryStore({
    schemaVersion: 1,
    createdAt: created,
    counters: { users: 5, orders: 0, orderItems: 0 },
    users,
    orders: {},
    orderItems: {},
    refreshTokens: {},
    idempotency: {},
  });
  let now = START.getTime();
  const codec = createJwtAccessTokenCodec(TEST_SECRET);
  const ctx = createDomainContext(
    {
      repo: createDatasetRepository(store),
      clock: () => new Date(now),
      passwords: hasher,
      tokens: codec,
    },
    { demoPasswords: { admin: PASSWORD, user: PASSWORD } },
  );
  return {
    ctx,
    store,
    codec,
    advance(seconds) {
      now += seconds * 1000;
    },
    user(id) {
      const user = store.data.users[String(id)];
      if (user === undefined) throw new Error(`fixture user ${id} is gone`);
      return user;
    },
  };
}

/**
 * The ApiProblem a promise rejects with (fails the test when it resolves or rejects otherwise).
 *
 * @example
 * expect((await problemOf(login(ctx, creds))).slug).toBe('invalid-credentials');
 */
export async function problemOf(promise: Promise<unknown>): Promise<ApiProblem> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiProblem) return error;
    throw new Error('expected an ApiProblem', { cause: error });
  }
  throw new Error('expected an ApiProblem, but the promise resolved');
}
