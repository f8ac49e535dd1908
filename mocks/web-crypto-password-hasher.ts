import type { PasswordHasher } from '../core/domain/ports.js';
import { randomValues, subtleCrypto } from '../core/web-crypto.js';

/** Iterations of PBKDF2-SHA256: strong enough for demo accounts, fast enough for a test run. */
const ITERATIONS = 100_000;
const encoder = new TextEncoder();

/**
 * Salted password hashing with Web Crypto (PBKDF2-SHA256), for the mocks in browsers, where
 * node:crypto's scrypt does not exist, and under jsdom, whose `crypto` has no `subtle` (Node's is
 * used then: core/web-crypto.ts). Stored as `pbkdf2$<iterations>$<salt b64>$<hash b64>`.
 *
 * @example
 * const hasher = createWebCryptoPasswordHasher();
 * await hasher.verify('secret', await hasher.hash('secret')); // true
 */
export function createWebCryptoPasswordHasher(iterations = ITERATIONS): PasswordHasher {
  return {
    async hash(password) {
      const salt = randomValues(new Uint8Array(16));
      const derived = await derive(password, salt, iterations);
      return `pbkdf2$${iterations}$${toBase64(salt)}$${toBase64(derived)}`;
    },
    async verify(password, stored) {
      const [scheme, rounds, salt, hash] = stored.split('$');
      const n = Number(rounds);
      if (scheme !== 'pbkdf2' || !Number.isInteger(n) || n < 1 || n > 10_000_000 || !salt || !hash)
        return false;
      try {
        const expected = fromBase64(hash);
        const actual = await derive(password, fromBase64(salt), n);
        // Constant time: every byte is compared whatever the first difference.
        let difference = expected.length ^ actual.length;
        for (let i = 0; i < actual.length; i++) difference |= actual[i]! ^ (expected[i] ?? 0);
        return difference === 0;
      } catch {
        return false;
      }
    },
  };
}

async function derive(
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<Uint8Array> {
  const subtle = subtleCrypto();
  const key = await subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, [
    'deriveBits',
  ]);
  const bits = await subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    key,
    256,
  );
  return new Uint8Array(bits);
}

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}
