import {
  TokenRejectedError,
  type AccessTokenClaims,
  type AccessTokenCodec,
} from '../core/domain/ports.js';
import { subtleCrypto } from '../core/web-crypto.js';

/** The contract's minimum length of the signing secret, in bytes. */
const MIN_SECRET_BYTES = 32;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Compact JWS parts are base64url without padding (RFC 7515). */
const BASE64URL = /^[A-Za-z0-9_-]*$/;
/** The header every token is signed with, encoded once. */
const HEADER = base64url(encoder.encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));

/**
 * The access-token port of the mocks: compact JWS with HS256 over Web Crypto's HMAC, from the
 * SubtleCrypto that core/web-crypto.ts finds (jsdom under Jest has no global `crypto.subtle`;
 * decision 0105). Same rules as the server's jsonwebtoken codec, and its tokens verify there
 * and the other way round: HS256 only (judged in the header before anything else; a `crit`
 * header is malformed), a secret of at least 32 bytes, the same claims, `nbf` then `exp` judged
 * at `now`, the signature compared in constant time.
 *
 * @example
 * const codec = createHs256AccessTokenCodec('a secret of at least thirty-two bytes!!');
 * const token = await codec.sign({ sub: '1', name: 'Ada', role: 'ADMIN' }, 900, new Date());
 */
export function createHs256AccessTokenCodec(secret: string): AccessTokenCodec {
  const bytes = encoder.encode(secret);
  if (bytes.length < MIN_SECRET_BYTES)
    throw new Error('the JWT signing secret must be at least 32 bytes');
  let imported: Promise<{ subtle: SubtleCrypto; key: CryptoKey }> | undefined;
  // Imported once, on first use, with the SubtleCrypto that signs with it afterwards.
  const hmac = () =>
    (imported ??= (async () => {
      const subtle = subtleCrypto();
      const key = await subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, [
        'sign',
      ]);
      return { subtle, key };
    })());
  const signature = async (input: string) => {
    const { subtle, key } = await hmac();
    return new Uint8Array(await subtle.sign('HMAC', key, encoder.encode(input)));
  };
  return {
    async sign({ sub, name, role }, ttlSeconds, now) {
      const iat = Math.floor(now.getTime() / 1000);
      const claims: AccessTokenClaims = { sub, name, role, iat, exp: iat + ttlSeconds };
      const input = `${HEADER}.${base64url(encoder.encode(JSON.stringify(claims)))}`;
      return `${input}.${base64url(await signature(input))}`;
    },
    async verify(token, now) {
      const parts = typeof token === 'string' ? token.split('.') : [];
      const [header = '', payload = '', signed = ''] = parts;
      if (parts.length !== 3) throw new TokenRejectedError('malformed');
      const alg = headerAlgorithm(header);
      if (alg === undefined) throw new TokenRejectedError('malformed');
      if (alg !== 'HS256') throw new TokenRejectedError('algorithm');
      // Not shaped like a JWS at all: malformed before any signature, as jsonwebtoken says.
      if (payload === '' || !BASE64URL.test(payload) || !BASE64URL.test(signed))
        throw new TokenRejectedError('malformed');
      // A key that cannot be made is the mocks' fault, not the token's: it is not a rejection.
      // Compared as text, as jsonwebtoken does: one signature has one encoding (a last
      // character that differs only in its unused bits is another signature, refused).
      const expected = base64url(await signature(`${header}.${payload}`));
      if (!sameText(expected, signed)) throw new TokenRejectedError('signature');
      return judgeClaims(decodeJson(payload), Math.floor(now.getTime() / 1000));
    },
  };
}

/** The `alg` of a header, or undefined when it is not a JSON object with a string `alg`. */
function headerAlgorithm(part: string): string | undefined {
  const header = decodeJson(part);
  if (header === undefined) return undefined;
  const { alg, crit } = header;
  // We never issue critical extensions, so none can be understood (RFC 7515 section 4.1.11).
  if (crit !== undefined) return undefined;
  return typeof alg === 'string' ? alg : undefined;
}

/** The claims of a verified payload, judged as jsonwebtoken does: `nbf`, then `exp`. */
function judgeClaims(payload: Record<string, unknown> | undefined, now: number): AccessTokenClaims {
  if (payload === undefined) throw new TokenRejectedError('malformed');
  const { sub, name, role, iat, exp, nbf } = payload;
  if (nbf !== undefined) {
    if (typeof nbf !== 'number') throw new TokenRejectedError('malformed');
    if (nbf > now) throw new TokenRejectedError('not-yet-valid');
  }
  if (exp !== undefined) {
    if (typeof exp !== 'number') throw new TokenRejectedError('malformed');
    if (now >= exp) throw new TokenRejectedError('expired');
  }
  if (
    typeof sub !== 'string' ||
    sub.length === 0 ||
    typeof name !== 'string' ||
    (role !== 'USER' && role !== 'ADMIN') ||
    !Number.isSafeInteger(iat) ||
    !Number.isSafeInteger(exp)
  )
    throw new TokenRejectedError('malformed');
  return { sub, name, role, iat: iat as number, exp: exp as number };
}

/** A base64url part decoded as a JSON object, or undefined for anything else. */
function decodeJson(part: string): Record<string, unknown> | undefined {
  const bytes = fromBase64url(part);
  if (!bytes || bytes.length === 0) return undefined;
  try {
    const value: unknown = JSON.parse(decoder.decode(bytes));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Constant time: every character is compared whatever the first difference. */
function sameText(expected: string, actual: string): boolean {
  let difference = expected.length ^ actual.length;
  for (let i = 0; i < expected.length; i++)
    difference |= expected.charCodeAt(i) ^ (actual.charCodeAt(i) || 0);
  return difference === 0;
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of a base64url text without padding, or undefined when it is not one. */
function fromBase64url(text: string): Uint8Array | undefined {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
