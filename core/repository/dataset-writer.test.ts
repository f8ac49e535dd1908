import { describe, expect, it } from 'vitest';
import type { Dataset, RefreshTokenRecord } from '../domain/dataset.js';
import { datasetWriter, type UndoLog } from './dataset-writer.js';

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

function writerOver(data: Dataset) {
  const undo: UndoLog = [];
  return { tx: datasetWriter(() => data, undo, 'this-process'), undo };
}

describe('datasetWriter: refresh tokens', () => {
  it('spends a family or all of a user, leaving spent times alone', async () => {
    const later = '2030-02-01T00:00:00.000Z';
    const data = dataWith(
      record('a', 1, 'f1', later),
      { ...record('b', 1, 'f1', later), spentAt: '2029-12-31T00:00:00.000Z' },
      record('c', 1, 'f2', later),
      record('d', 2, 'f3', later),
    );
    const { tx } = writerOver(data);
    expect(await tx.spendRefreshTokens({ familyId: 'f1' }, NOW.toISOString())).toBe(1);
    expect(data.refreshTokens.b?.spentAt).toBe('2029-12-31T00:00:00.000Z');
    expect(data.refreshTokens.c?.spentAt).toBeNull();
    expect(await tx.spendRefreshTokens({ userId: 1 }, NOW.toISOString())).toBe(1);
    expect(data.refreshTokens.c?.spentAt).toBe(NOW.toISOString());
    expect(data.refreshTokens.d?.spentAt).toBeNull();
  });

  it('prunes only families without a live token', async () => {
    const past = '2029-12-31T00:00:00.000Z';
    const future = '2030-01-02T00:00:00.000Z';
    const data = dataWith(
      record('a', 1, 'dead', past),
      record('b', 1, 'mixed', past),
      record('c', 1, 'mixed', future),
      record('d', 1, 'boundary', NOW.toISOString()),
    );
    await writerOver(data).tx.pruneExpiredFamilies(NOW);
    expect(Object.keys(data.refreshTokens).sort()).toEqual(['b', 'c']);
  });

  it('undoes every change when its log is run backwards', async () => {
    const later = '2030-02-01T00:00:00.000Z';
    const data = dataWith(record('a', 1, 'f1', later), record('b', 2, 'f2', NOW.toISOString()));
    const before = structuredClone(data);
    const { tx, undo } = writerOver(data);
    await tx.spendRefreshTokens({ userId: 1 }, NOW.toISOString());
    await tx.pruneExpiredFamilies(NOW);
    await tx.putRefreshToken(record('c', 3, 'f3', later));
    for (let i = undo.length - 1; i >= 0; i -= 1) undo[i]?.();
    expect(data).toEqual(before);
  });
});
