import type { PasswordHasher } from './ports.js';

/**
 * One dummy hash per hasher, made by that hasher, so that verifying against it costs exactly
 * what a real verify costs whatever the runtime's algorithm and parameters are. (A constant
 * scrypt string would be verified cheaply, or not at all, by a hasher with other parameters.)
 */
const dummyHashes = new WeakMap<PasswordHasher, Promise<string>>();

function dummyHash(hasher: PasswordHasher): Promise<string> {
  let hash = dummyHashes.get(hasher);
  if (hash === undefined) {
    hash = hasher.hash('apikit dummy password: never matches a login');
    // A failed hash must not poison the cache for the hasher's lifetime.
    hash.catch(() => dummyHashes.delete(hasher));
    dummyHashes.set(hasher, hash);
  }
  return hash;
}

/**
 * Checks a login password against a stored hash, spending the same work when there is no
 * hash to check (unknown email, user without password), so that the answer's timing does not
 * reveal which emails exist or can log in. Always false without a stored hash.
 *
 * @example
 * const ok = await checkPassword(ctx.passwords, password, user?.passwordHash ?? null);
 */
export async function checkPassword(
  hasher: PasswordHasher,
  password: string,
  storedHash: string | null,
): Promise<boolean> {
  if (storedHash === null) {
    await hasher.verify(password, await dummyHash(hasher));
    return false;
  }
  return hasher.verify(password, storedHash);
}
