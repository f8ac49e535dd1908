import { describe, expect, it } from 'vitest';
import { createScryptPasswordHasher } from './scrypt-password-hasher.js';

const hasher = createScryptPasswordHasher();

describe('scrypt password hasher', () => {
  it('hashes in the documented format and verifies the same password', async () => {
    const stored = await hasher.hash('correct horse');
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(await hasher.verify('correct horse', stored)).toBe(true);
  });

  it('refuses a wrong password', async () => {
    const stored = await hasher.hash('correct horse');
    expect(await hasher.verify('correct horsE', stored)).toBe(false);
    expect(await hasher.verify('', stored)).toBe(false);
  });

  it('salts: two hashes of one password differ, and both verify', async () => {
    const [a, b] = await Promise.all([hasher.hash('same'), hasher.hash('same')]);
    expect(a).not.toBe(b);
    expect(await hasher.verify('same', a)).toBe(true);
    expect(await hasher.verify('same', b)).toBe(true);
  });

  it('verifies hashes made with other (stronger) parameters', async () => {
    const strong = await createScryptPasswordHasher({ N: 2 ** 15, r: 8, p: 1 }).hash('pw');
    expect(strong.startsWith('scrypt$32768$8$1$')).toBe(true);
    expect(await hasher.verify('pw', strong)).toBe(true);
  });

  it('answers false, never throws, for a malformed stored hash', async () => {
    const good = await hasher.hash('pw');
    const [, , , , salt, key] = good.split('$');
    const malformed = [
      '',
      'not a hash',
      '$2b$10$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234',
      good.replace('scrypt$', 'scrypt2$'),
      `scrypt$16384$8$1$${salt}`,
      `scrypt$16384$8$1$${salt}$${key}$extra`,
      `scrypt$abc$8$1$${salt}$${key}`,
      `scrypt$16000$8$1$${salt}$${key}`,
      `scrypt$1073741824$8$1$${salt}$${key}`,
      `scrypt$16384$0$1$${salt}$${key}`,
      `scrypt$16384$8$1$!!!!$${key}`,
      `scrypt$16384$8$1$${salt}$`,
      `scrypt$16384$8$1$${salt}$AAAA`,
      null as unknown as string,
    ];
    for (const stored of malformed) {
      await expect(hasher.verify('pw', stored)).resolves.toBe(false);
    }
  });

  it('refuses out-of-range parameters at construction', () => {
    expect(() => createScryptPasswordHasher({ N: 1000, r: 8, p: 1 })).toThrow(RangeError);
    expect(() => createScryptPasswordHasher({ N: 2 ** 14, r: 0, p: 1 })).toThrow(RangeError);
  });
});
