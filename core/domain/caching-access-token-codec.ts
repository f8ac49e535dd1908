import type { AccessTokenClaims, AccessTokenCodec } from './ports.js';

/** Options of {@link createCachingAccessTokenCodec}. */
export interface TokenCacheOptions {
  /** Most tokens remembered at once (default 10,000); the oldest entry goes first. */
  maxEntries?: number;
}

interface Verified {
  claims: AccessTokenClaims;
  /** The time (ms) at which the wrapped codec accepted the token. */
  verifiedAtMs: number;
  /** exp in ms: from then on the token is expired. */
  expiresAtMs: number;
}

/** How many verified tokens the cache keeps by default (docs/deploy.md quotes it). */
export const TOKEN_CACHE_MAX_ENTRIES = 10_000;

/**
 * Wraps an access-token codec with a bounded cache of tokens it has verified. A client sends the
 * same token on every request for its whole life (15 minutes by default), and verifying an HS256
 * signature (base64url, JSON, HMAC) costs more than the rest of a small read. What is cached is
 * only what the wrapped codec accepted, keyed by the exact token text: a token that differs in
 * any character (a tampered payload or signature) misses and is verified in full. A hit is
 * answered only while the time lies between the moment it was verified and `exp`; outside that
 * window (expired, or a clock set back) the wrapped codec judges it again, so every refusal and
 * its reason stay exactly the codec's. Whether the user still exists and is not BLOCKED is
 * not a property of the token: `authenticate` checks that on every request, cache or not.
 *
 * @example
 * const tokens = createCachingAccessTokenCodec(createJwtAccessTokenCodec(secret));
 */
export function createCachingAccessTokenCodec(
  codec: AccessTokenCodec,
  options: TokenCacheOptions = {},
): AccessTokenCodec & { readonly size: number } {
  const maxEntries = options.maxEntries ?? TOKEN_CACHE_MAX_ENTRIES;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError('maxEntries must be a positive integer');
  }
  // A Map iterates in insertion order, so its first key is the oldest entry.
  const verified = new Map<string, Verified>();
  return {
    get size() {
      return verified.size;
    },
    sign: (claims, ttlSeconds, now) => codec.sign(claims, ttlSeconds, now),
    async verify(token, now) {
      const nowMs = now.getTime();
      const hit = verified.get(token);
      if (hit !== undefined) {
        if (nowMs >= hit.verifiedAtMs && nowMs < hit.expiresAtMs) return { ...hit.claims };
        verified.delete(token);
      }
      const claims = await codec.verify(token, now);
      const expiresAtMs = claims.exp * 1000;
      if (nowMs < expiresAtMs) {
        if (verified.size >= maxEntries) {
          const oldest = verified.keys().next().value as string;
          verified.delete(oldest);
        }
        verified.set(token, { claims: { ...claims }, verifiedAtMs: nowMs, expiresAtMs });
      }
      return claims;
    },
  };
}
