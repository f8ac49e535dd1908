import type { ApiProblem } from './api-problem.js';
import {
  accountBlocked,
  invalidCredentials,
  invalidRefreshToken,
  invalidToken,
  type RefreshRejection,
} from './auth-problems.js';
import { checkPassword } from './auth-password-check.js';
import {
  hashRefreshToken,
  isRefreshTokenExpired,
  newFamilyId,
  newRefreshToken,
  presentedTokenHash,
} from './auth-refresh-tokens.js';
import type { RefreshTokenRecord, RoleName, UserRecord } from './dataset.js';
import type { LoginRequest, TokenPair } from './dto.js';
import { TokenRejectedError, type DomainContext, type Principal } from './ports.js';
import { ADMIN_ROLE_ID } from './role-ids.js';
import type { RepositoryReader } from '../repository/repository.js';

/**
 * Authentication: login, refresh-token rotation with reuse detection, logout, and resolving an
 * access token to the calling principal. Transport-agnostic: crypto comes from the context's
 * ports and Web Crypto; every failure is an ApiProblem (401 or 403).
 */

/** A subject is the user id as a string: a positive integer without sign or leading zero. */
const SUBJECT_PATTERN = /^[1-9][0-9]*$/;

/**
 * Exchanges an email (case-insensitive) and password for a token pair starting a new
 * refresh-token family. 401 `invalid-credentials` alike for an unknown email, a user without
 * password and a wrong password; 403 `account-blocked` for a correct password of a BLOCKED user.
 *
 * @example
 * const pair = await login(ctx, { username: 'admin@example.com', password: 'secret' });
 */
export async function login(ctx: DomainContext, credentials: LoginRequest): Promise<TokenPair> {
  const now = ctx.clock();
  const [user] = await ctx.repo.usersByEmail(credentials.username);
  const passwordOk = await checkPassword(
    ctx.passwords,
    credentials.password,
    user?.passwordHash ?? null,
  );
  if (user === undefined || !passwordOk) throw invalidCredentials();
  if (user.status === 'BLOCKED') throw accountBlocked();

  const issued = await issueTokenPair(ctx, user, newFamilyId(), now);
  await ctx.repo.transact(async (tx) => {
    // Re-checked: the user may have been deleted or blocked while the password was verified.
    const current = await tx.user(user.id);
    if (current === undefined) throw invalidCredentials();
    if (current.status === 'BLOCKED') throw accountBlocked();
    await tx.putRefreshToken(issued.record);
    await tx.pruneExpiredFamilies(now);
  });
  return issued.pair;
}

/**
 * Rotates a refresh token: spends it and answers a new pair in the same family, in one write.
 * 401 `invalid-refresh-token` for an unknown, expired or spent token; presenting a spent one
 * first revokes its whole family (durably), as does a refresh for a BLOCKED user.
 *
 * @example
 * const next = await refresh(ctx, pair.refreshToken);
 */
export async function refresh(ctx: DomainContext, refreshToken: string): Promise<TokenPair> {
  const now = ctx.clock();
  const hash = await presentedTokenHash(refreshToken);
  if (hash === undefined) throw invalidRefreshToken('unknown');

  const verdict = await judgeRefreshToken(ctx.repo, hash, now);
  if (verdict.kind === 'reject') throw invalidRefreshToken(verdict.reason);
  if (verdict.kind === 'revoke') {
    // The revocation must be durable before the 401 goes out: await the write, then throw.
    await ctx.repo.transact((tx) =>
      tx.spendRefreshTokens({ familyId: verdict.familyId }, now.toISOString()),
    );
    throw invalidRefreshToken(verdict.reason);
  }

  const issued = await issueTokenPair(ctx, verdict.user, verdict.record.familyId, now);
  const refusal = await ctx.repo.transact(async (tx): Promise<ApiProblem | undefined> => {
    // Judged again: a concurrent refresh may have spent the token while this one was signing.
    const current = await judgeRefreshToken(tx, hash, now);
    if (current.kind === 'reject') throw invalidRefreshToken(current.reason);
    if (current.kind === 'revoke') {
      await tx.spendRefreshTokens({ familyId: current.familyId }, now.toISOString());
      return invalidRefreshToken(current.reason);
    }
    await tx.putRefreshToken({ ...current.record, spentAt: now.toISOString() });
    await tx.putRefreshToken(issued.record);
    await tx.pruneExpiredFamilies(now);
    return undefined;
  });
  if (refusal !== undefined) throw refusal;
  return issued.pair;
}

/**
 * Ends the session of a refresh token: spends every unspent token of its family. An unknown
 * token is not an error (logout is idempotent).
 *
 * @example
 * await logout(ctx, pair.refreshToken);
 */
export async function logout(ctx: DomainContext, refreshToken: string): Promise<void> {
  const now = ctx.clock();
  const hash = await presentedTokenHash(refreshToken);
  if (hash === undefined) return;
  if ((await ctx.repo.refreshToken(hash)) === undefined) return;
  await ctx.repo.transact(async (tx) => {
    const current = await tx.refreshToken(hash);
    if (current !== undefined) {
      await tx.spendRefreshTokens({ familyId: current.familyId }, now.toISOString());
    }
  });
}

/**
 * Resolves an access token to the calling principal. The token must verify (HS256, unexpired)
 * and its subject must be an existing, non-BLOCKED user; ADMIN comes from the user's current
 * roles, not from the token's `role` claim, so blocking and demotion take effect at once.
 * 401 `invalid-token` otherwise, with a detail that says why and never echoes the token.
 *
 * @example
 * const principal = await authenticate(ctx, bearerToken); // { userId: 1, isAdmin: true }
 */
export async function authenticate(ctx: DomainContext, accessToken: string): Promise<Principal> {
  let subject: string;
  try {
    ({ sub: subject } = await ctx.tokens.verify(accessToken, ctx.clock()));
  } catch (error) {
    if (error instanceof TokenRejectedError) throw invalidToken(error.reason);
    throw error;
  }
  if (!SUBJECT_PATTERN.test(subject) || !Number.isSafeInteger(Number(subject))) {
    throw invalidToken('bad-subject');
  }
  const user = await ctx.repo.user(Number(subject));
  if (user === undefined) throw invalidToken('unknown-user');
  if (user.status === 'BLOCKED') throw invalidToken('blocked-user');
  return { userId: user.id, isAdmin: isAdmin(user) };
}

type RefreshVerdict =
  | { kind: 'reject'; reason: RefreshRejection }
  | { kind: 'revoke'; reason: RefreshRejection; familyId: string }
  | { kind: 'rotate'; record: RefreshTokenRecord; user: UserRecord };

/**
 * What to do with a presented refresh token. Spent is judged before expired: a stolen token
 * replayed after its own expiry must still revoke the newer tokens of its family.
 */
async function judgeRefreshToken(
  reader: RepositoryReader,
  hash: string,
  now: Date,
): Promise<RefreshVerdict> {
  const record = await reader.refreshToken(hash);
  if (record === undefined) return { kind: 'reject', reason: 'unknown' };
  if (record.spentAt !== null) {
    return { kind: 'revoke', reason: 'reused', familyId: record.familyId };
  }
  if (isRefreshTokenExpired(record, now)) return { kind: 'reject', reason: 'expired' };
  const user = await reader.user(record.userId);
  if (user === undefined) return { kind: 'reject', reason: 'unknown-user' };
  if (user.status === 'BLOCKED') {
    return { kind: 'revoke', reason: 'blocked-user', familyId: record.familyId };
  }
  return { kind: 'rotate', record, user };
}

/** Signs an access token and makes a refresh token with its record; stores nothing. */
async function issueTokenPair(
  ctx: DomainContext,
  user: UserRecord,
  familyId: string,
  now: Date,
): Promise<{ pair: TokenPair; record: RefreshTokenRecord }> {
  const ttl = ctx.config.accessTokenTtlSeconds;
  const accessToken = await ctx.tokens.sign(
    { sub: String(user.id), name: user.name, role: roleName(user) },
    ttl,
    now,
  );
  const refreshToken = newRefreshToken();
  const record: RefreshTokenRecord = {
    hash: await hashRefreshToken(refreshToken),
    userId: user.id,
    familyId,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + ctx.config.refreshTokenTtlSeconds * 1000).toISOString(),
    spentAt: null,
  };
  return { pair: { accessToken, refreshToken, tokenType: 'Bearer', expiresIn: ttl }, record };
}

function isAdmin(user: UserRecord): boolean {
  return user.roleIds.includes(ADMIN_ROLE_ID);
}

function roleName(user: UserRecord): RoleName {
  return isAdmin(user) ? 'ADMIN' : 'USER';
}
