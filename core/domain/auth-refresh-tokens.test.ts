import { describe, expect, it } from 'vitest';
import type { Dataset, RefreshTokenRecord } from './dataset.js';
import {
  hashRefreshToken,
  newFamilyId,
  newRefreshToken,
  presentedTokenHash,
  pruneExpiredFamilies,
  revokeUserRefreshTokens,
  spendFamily,
} from './auth-refresh-tokens.js';

const NOW = new Date('2030-01-01T00:00:00.000Z');

function record(
  hash: string,
  userId: number,
  familyId: string,
  expiresAt: string,
): RefreshTokenRecord {
  return { hash, userId, familyId, createdAt: NOW.toISOString(), expiresAt, spentAt: null };
}

function dataWith(...records: RefreshTokenRecord[]): Dataset {
  return {
    schemaVersion: 1,
    createdAt: NOW.toISOString(),
    counters: { users: 0, orders: 0, orderItems: 0 },
    users: {},
    orders: {},
    orderItems: {},
    refreshTokens: Object.fromEntries(records.map((r) => [r.hash, r])),
    idempotency: {},
  };
}

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

  it('spends a family or all of a user, leaving spent times alone', () => {
    const later = '2030-02-01T00:00:00.000Z';
    const data = dataWith(
      record('a', 1, 'f1', later),
      { ...record('b', 1, 'f1', later), spentAt: '2029-12-31T00:00:00.000Z' },
      record('c', 1, 'f2', later),
      record('d', 2, 'f3', later),
    );
    expect(spendFamily(data, 'f1', NOW)).toBe(1);
    expect(data.refreshTokens.b?.spentAt).toBe('2029-12-31T00:00:00.000Z');
    expect(data.refreshTokens.c?.spentAt).toBeNull();
    expect(revokeUserRefreshTokens(data, 1, NOW)).toBe(1);
    expect(data.refreshTokens.c?.spentAt).toBe(NOW.toISOString());
    expect(data.refreshTokens.d?.spentAt).toBeNull();
  });

  it('prunes only families without a live token', () => {
    const past = '2029-12-31T00:00:00.000Z';
    const future = '2030-01-02T00:00:00.000Z';
    const data = dataWith(
      record('a', 1, 'dead', past),
      record('b', 1, 'mixed', past),
      record('c', 1, 'mixed', future),
      record('d', 1, 'boundary', NOW.toISOString()),
    );
    pruneExpiredFamilies(data, NOW);
    expect(Object.keys(data.refreshTokens).sort()).toEqual(['b', 'c']);
  });
});
