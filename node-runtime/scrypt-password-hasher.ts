import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { PasswordHasher } from '../core/domain/ports.js';

/** scrypt cost parameters. N must be a power of two. */
export interface ScryptParameters {
  N: number;
  r: number;
  p: number;
}

/** The OWASP minimum for scrypt (N=2^14, r=8, p=1): about 16 MiB and tens of ms per hash. */
export const DEFAULT_SCRYPT_PARAMETERS: ScryptParameters = { N: 2 ** 14, r: 8, p: 1 };

const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Bounds for parameters read back from a stored hash, so a corrupt one cannot exhaust memory. */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;
const MIN_SALT_BYTES = 8;
const MIN_KEY_BYTES = 16;
const MAX_BYTES = 1024;

/**
 * Password hashing with node:crypto scrypt. Stored format:
 * `scrypt$N$r$p$saltB64$hashB64` (standard base64), so that parameters can be raised later
 * while old hashes still verify with the parameters they were made with.
 *
 * @example
 * const hasher = createScryptPasswordHasher();
 * const stored = await hasher.hash('correct horse');
 * await hasher.verify('correct horse', stored); // true
 */
export function createScryptPasswordHasher(
  parameters: ScryptParameters = DEFAULT_SCRYPT_PARAMETERS,
): PasswordHasher {
  if (!isValidParameters(parameters)) {
    throw new RangeError('scrypt parameters out of range (N a power of two >= 2, r and p >= 1)');
  }
  const { N, r, p } = parameters;
  return {
    async hash(password) {
      const salt = randomBytes(SALT_BYTES);
      const key = await deriveKey(password, salt, KEY_BYTES, parameters);
      return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
    },
    async verify(password, storedHash) {
      const parsed = parseStoredHash(storedHash);
      if (parsed === undefined) return false;
      try {
        const key = await deriveKey(password, parsed.salt, parsed.key.length, parsed.parameters);
        return timingSafeEqual(key, parsed.key);
      } catch {
        return false;
      }
    },
  };
}

interface StoredHash {
  parameters: ScryptParameters;
  salt: Buffer;
  key: Buffer;
}

function parseStoredHash(storedHash: unknown): StoredHash | undefined {
  if (typeof storedHash !== 'string') return undefined;
  const parts = storedHash.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [, nText, rText, pText, saltText, keyText] = parts as [string, ...string[]];
  const parameters = { N: toInteger(nText), r: toInteger(rText), p: toInteger(pText) };
  if (!isValidParameters(parameters) || parameters.N > MAX_N) return undefined;
  if (parameters.r > MAX_R || parameters.p > MAX_P) return undefined;
  const salt = fromBase64(saltText);
  const key = fromBase64(keyText);
  if (salt === undefined || salt.length < MIN_SALT_BYTES) return undefined;
  if (key === undefined || key.length < MIN_KEY_BYTES) return undefined;
  return { parameters, salt, key };
}

function deriveKey(
  password: string,
  salt: Buffer,
  length: number,
  { N, r, p }: ScryptParameters,
): Promise<Buffer> {
  // OpenSSL needs 128 * r * (N + p + 2) bytes; Node's default cap (32 MiB) would refuse N >= 2^15.
  const options: ScryptOptions = { N, r, p, maxmem: 128 * r * (N + p + 2) + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

function isValidParameters({ N, r, p }: ScryptParameters): boolean {
  return (
    Number.isSafeInteger(N) &&
    N >= 2 &&
    Number.isInteger(Math.log2(N)) &&
    Number.isSafeInteger(r) &&
    r >= 1 &&
    Number.isSafeInteger(p) &&
    p >= 1
  );
}

function toInteger(text: string | undefined): number {
  return text !== undefined && /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : NaN;
}

function fromBase64(text: string | undefined): Buffer | undefined {
  if (text === undefined || text.length > MAX_BYTES * 2) return undefined;
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) {
    return undefined;
  }
  return Buffer.from(text, 'base64');
}
