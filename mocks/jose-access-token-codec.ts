import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';
import {
  TokenRejectedError,
  type AccessTokenClaims,
  type AccessTokenCodec,
} from '../core/domain/ports.js';

/**
 * The access-token port with `jose` (Web Crypto), for the mocks in browsers, where
 * jsonwebtoken does not run. Same rules as the server's codec: HS256 only (checked in the
 * header before anything else), a secret of at least 32 bytes, the same claims.
 *
 * @example
 * const codec = createJoseAccessTokenCodec('a secret of at least thirty-two bytes!!');
 */
export function createJoseAccessTokenCodec(secret: string): AccessTokenCodec {
  const bytes = new TextEncoder().encode(secret);
  if (bytes.length < 32) throw new Error('the JWT signing secret must be at least 32 bytes');
  // A CryptoKey, not the bytes: jose takes a Uint8Array only when `instanceof Uint8Array` holds,
  // and under jsdom the global Uint8Array is jsdom's while TextEncoder's is Node's, so every
  // sign and verify failed there. jose knows a CryptoKey by its toStringTag, in any realm; and
  // imported once, the key is not imported again by jose on every token.
  let imported: Promise<CryptoKey> | undefined;
  const key = () =>
    (imported ??= crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]));
  return {
    async sign(claims, ttlSeconds, now) {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({ name: claims.name, role: claims.role })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttlSeconds)
        .sign(await key());
    },
    async verify(token, now) {
      let alg: unknown;
      try {
        alg = decodeProtectedHeader(token).alg;
      } catch {
        throw new TokenRejectedError('malformed');
      }
      if (alg !== 'HS256') throw new TokenRejectedError('algorithm');
      // Outside the try: a key that cannot be made is the mock's fault, not a malformed token.
      const hmac = await key();
      try {
        const { payload } = await jwtVerify(token, hmac, {
          algorithms: ['HS256'],
          currentDate: now,
        });
        const { sub, name, role, iat, exp } = payload as Partial<AccessTokenClaims>;
        if (
          typeof sub !== 'string' ||
          typeof name !== 'string' ||
          (role !== 'USER' && role !== 'ADMIN')
        ) {
          throw new TokenRejectedError('malformed');
        }
        if (typeof iat !== 'number' || typeof exp !== 'number')
          throw new TokenRejectedError('malformed');
        return { sub, name, role, iat, exp };
      } catch (error) {
        if (error instanceof TokenRejectedError) throw error;
        if (error instanceof errors.JWTExpired) throw new TokenRejectedError('expired');
        if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'nbf')
          throw new TokenRejectedError('not-yet-valid');
        if (error instanceof errors.JWSSignatureVerificationFailed)
          throw new TokenRejectedError('signature');
        if (error instanceof errors.JOSEAlgNotAllowed) throw new TokenRejectedError('algorithm');
        throw new TokenRejectedError('malformed');
      }
    },
  };
}
