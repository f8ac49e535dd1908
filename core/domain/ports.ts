import type { RoleName } from './dataset.js';
import type { SeedSource } from './seed-dataset.js';
import type { Repository } from '../repository/repository.js';

/**
 * What the domain needs from its runtime, injected so that the same services run under Node
 * (the reference server: node:crypto scrypt, jsonwebtoken) and in a browser (the MSW mocks:
 * Web Crypto's PBKDF2 and HMAC). The domain itself uses only standard web APIs (Web Crypto,
 * through ../web-crypto.ts).
 */

/** Salted password hashing (scrypt or stronger). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password; never throws for a malformed stored hash, just false. */
  verify(password: string, storedHash: string): Promise<boolean>;
}

/** The claims of an access token (JWT, HS256). `sub` is the user id as a string. */
export interface AccessTokenClaims {
  sub: string;
  name: string;
  role: RoleName;
  iat: number;
  exp: number;
}

/** Why a presented access token was refused. */
export type TokenRejection = 'malformed' | 'algorithm' | 'signature' | 'expired' | 'not-yet-valid';

export class TokenRejectedError extends Error {
  override name = 'TokenRejectedError';
  constructor(readonly reason: TokenRejection) {
    super(`access token refused: ${reason}`);
  }
}

/** Signs and verifies access tokens. Only HS256 is ever accepted. */
export interface AccessTokenCodec {
  sign(
    claims: Omit<AccessTokenClaims, 'iat' | 'exp'>,
    ttlSeconds: number,
    now: Date,
  ): Promise<string>;
  /** Resolves the claims, or rejects with {@link TokenRejectedError}. */
  verify(token: string, now: Date): Promise<AccessTokenClaims>;
}

/** Tunables of the domain, from `apikit serve` options and APIKIT_* variables. */
export interface DomainConfig {
  /** Access token lifetime in seconds (default 900). */
  accessTokenTtlSeconds: number;
  /** Refresh token lifetime in seconds (default 7 days). */
  refreshTokenTtlSeconds: number;
  /** How long an Idempotency-Key answer is replayed, in seconds (default 24 hours). */
  idempotencyTtlSeconds: number;
  /** Passwords of the two demo login accounts. */
  demoPasswords: { admin: string; user: string };
  /** What a new store and `/admin/reset` start from (default: the demo data set). */
  dataSet?: SeedSource;
}

/** Everything a service needs: the repository, the time, and the runtime's crypto. */
export interface DomainContext {
  repo: Repository;
  clock: () => Date;
  passwords: PasswordHasher;
  tokens: AccessTokenCodec;
  config: DomainConfig;
}

/** Who is calling, resolved per request from the token and the user's *current* roles. */
export interface Principal {
  userId: number;
  isAdmin: boolean;
}
