import { randomValues, subtleCrypto } from '../web-crypto.js';
import type { RefreshTokenRecord } from './dataset.js';

/**
 * Refresh token primitives: opaque random tokens, their stored hash, and the family
 * bookkeeping behind rotation and reuse detection. Only standard web APIs (Web Crypto, through
 * ../web-crypto.ts), so the same code runs in the reference server, the browser mocks and jsdom.
 */

/** 32 bytes = 256 random bits, the contract's minimum for refresh tokens. */
const REFRESH_TOKEN_BYTES = 32;
/** Real tokens are 43 characters; anything far longer is not worth hashing. */
const MAX_PRESENTED_LENGTH = 512;

/**
 * A new opaque refresh token: 32 random bytes, base64url without padding (43 characters).
 *
 * @example
 * const token = newRefreshToken(); // 'vUc-Xc3OJRDC308MWlSmBfo2R_50r64gqM24uRsaH2M'
 */
export function newRefreshToken(): string {
  return base64url(randomBytes(REFRESH_TOKEN_BYTES));
}

/**
 * A new family id for the tokens rotated from one login (16 random bytes, base64url).
 *
 * @example
 * const familyId = newFamilyId();
 */
export function newFamilyId(): string {
  return base64url(randomBytes(16));
}

/**
 * SHA-256 (hex) of a refresh token: its key in `data.refreshTokens`. A salt is not needed: the
 * token carries 256 random bits, so the hash cannot be reversed by guessing.
 *
 * @example
 * const record = await repository.refreshToken(await hashRefreshToken(token));
 */
export async function hashRefreshToken(token: string): Promise<string> {
  const digest = await subtleCrypto().digest('SHA-256', new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The stored hash of a presented token, or undefined when the value cannot be one of ours
 * (not a string, empty, absurdly long), so that callers answer "unknown" without hashing it.
 *
 * @example
 * const hash = await presentedTokenHash(body.refreshToken);
 */
export async function presentedTokenHash(token: unknown): Promise<string | undefined> {
  if (typeof token !== 'string' || token.length === 0 || token.length > MAX_PRESENTED_LENGTH) {
    return undefined;
  }
  return hashRefreshToken(token);
}

/** Whether a token's lifetime is over at `now`. */
export function isRefreshTokenExpired(record: RefreshTokenRecord, now: Date): boolean {
  return Date.parse(record.expiresAt) <= now.getTime();
}

function randomBytes(length: number): Uint8Array {
  return randomValues(new Uint8Array(length));
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
