import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import type JsonWebToken from 'jsonwebtoken';
import {
  TokenRejectedError,
  type AccessTokenClaims,
  type AccessTokenCodec,
  type TokenRejection,
} from '../core/domain/ports.js';

/** The contract's minimum length of the signing secret, in bytes. */
export const MIN_SECRET_BYTES = 32;
const ALGORITHM = 'HS256';

type Jwt = typeof JsonWebToken;
let loaded: Jwt | undefined;

/**
 * jsonwebtoken, imported on first use: with its dependencies (semver alone is some fifty
 * modules) it is a sizeable part of the server's cold start, and no token is signed or
 * verified before the first login or authenticated request.
 */
async function jsonwebtoken(): Promise<Jwt> {
  return (loaded ??= (await import('jsonwebtoken')).default);
}

/**
 * Access tokens as JWTs with jsonwebtoken, HS256 only. The secret is turned into a KeyObject
 * once: given a string, jsonwebtoken first tries to parse it as a PEM public key on every
 * verify, which makes verifying several times slower.
 *
 * A string secret is used as its UTF-8 bytes (it is not base64-decoded).
 *
 * @example
 * const codec = createJwtAccessTokenCodec(process.env.APIKIT_JWT_SECRET ?? randomSigningSecret());
 * const token = await codec.sign({ sub: '1', name: 'Ada', role: 'ADMIN' }, 900, new Date());
 * const claims = await codec.verify(token, new Date());
 */
export function createJwtAccessTokenCodec(secret: string | Uint8Array): AccessTokenCodec {
  const key = secretKey(secret);
  return {
    async sign({ sub, name, role }, ttlSeconds, now) {
      const jwt = loaded ?? (await jsonwebtoken());
      const iat = Math.floor(now.getTime() / 1000);
      const claims: AccessTokenClaims = { sub, name, role, iat, exp: iat + ttlSeconds };
      return jwt.sign(claims, key, {
        algorithm: ALGORITHM,
        header: { alg: ALGORITHM, typ: 'JWT' },
      });
    },
    async verify(token, now) {
      return verifyToken(loaded ?? (await jsonwebtoken()), token, key, now);
    },
  };
}

/**
 * A fresh signing secret (48 random bytes, base64url) for a server started without one: its
 * tokens do not outlive a restart.
 *
 * @example
 * const secret = process.env.APIKIT_JWT_SECRET ?? randomSigningSecret();
 */
export function randomSigningSecret(): string {
  return randomBytes(48).toString('base64url');
}

function secretKey(secret: string | Uint8Array): KeyObject {
  const bytes = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
  if (bytes.length < MIN_SECRET_BYTES) {
    throw new RangeError(
      `The JWT signing secret must be at least ${MIN_SECRET_BYTES} bytes, got ${bytes.length}: ` +
        'set APIKIT_JWT_SECRET to a longer value, or leave it unset for a random one.',
    );
  }
  return createSecretKey(bytes);
}

function verifyToken(jwt: Jwt, token: string, key: KeyObject, now: Date): AccessTokenClaims {
  // The header is judged first, so that any other alg (none included) is named as such
  // instead of surfacing as whatever jsonwebtoken happens to stumble on.
  const alg = headerAlgorithm(token);
  if (alg === undefined) throw new TokenRejectedError('malformed');
  if (alg !== ALGORITHM) throw new TokenRejectedError('algorithm');
  let payload: unknown;
  try {
    payload = jwt.verify(token, key, {
      algorithms: [ALGORITHM],
      clockTimestamp: Math.floor(now.getTime() / 1000),
    });
  } catch (error) {
    throw new TokenRejectedError(rejection(jwt, error));
  }
  if (!isClaims(payload)) throw new TokenRejectedError('malformed');
  const { sub, name, role, iat, exp } = payload;
  return { sub, name, role, iat, exp };
}

/** The `alg` of a compact JWS header, or undefined when the token is not shaped like one. */
function headerAlgorithm(token: unknown): string | undefined {
  if (typeof token !== 'string') return undefined;
  const parts = token.split('.');
  if (parts.length !== 3 || !/^[A-Za-z0-9_-]+$/.test(parts[0] ?? '')) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(parts[0] ?? '', 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) return undefined;
  const { alg, crit } = header as { alg?: unknown; crit?: unknown };
  // We never issue critical extensions, so none can be understood (RFC 7515 section 4.1.11).
  if (crit !== undefined) return undefined;
  return typeof alg === 'string' ? alg : undefined;
}

function rejection(jwt: Jwt, error: unknown): TokenRejection {
  // Subclasses first: both extend JsonWebTokenError.
  if (error instanceof jwt.TokenExpiredError) return 'expired';
  if (error instanceof jwt.NotBeforeError) return 'not-yet-valid';
  if (error instanceof jwt.JsonWebTokenError) {
    if (error.message === 'invalid signature' || error.message === 'jwt signature is required') {
      return 'signature';
    }
    if (error.message === 'invalid algorithm') return 'algorithm';
  }
  return 'malformed';
}

function isClaims(payload: unknown): payload is AccessTokenClaims {
  if (typeof payload !== 'object' || payload === null) return false;
  const { sub, name, role, iat, exp } = payload as Record<string, unknown>;
  return (
    typeof sub === 'string' &&
    sub.length > 0 &&
    typeof name === 'string' &&
    (role === 'USER' || role === 'ADMIN') &&
    Number.isSafeInteger(iat) &&
    Number.isSafeInteger(exp)
  );
}
