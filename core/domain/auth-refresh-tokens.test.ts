import { describe, expect, it } from 'vitest';
import {
  hashRefreshToken,
  newFamilyId,
  newRefreshToken,
  presentedTokenHash,
} from './auth-refresh-tokens.js';

describe('refresh token primitives', () => {
  it('makes 256-bit base64url tokens and distinct family ids', () => {
    const tokens = new Set(Array.from({ length: 100 }, newRefreshToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newFamilyId()).not.toBe(newFamilyId());
  });

  it('hashes with SHA-256 (hex)', async () => {
    expect(await hashRefreshToken('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(await presentedTokenHash('abc')).toBe(await hashRefreshToken('abc'));
    expect(await presentedTokenHash(undefined)).toBeUndefined();
    expect(await presentedTokenHash('a'.repeat(513))).toBeUndefined();
  });
});
