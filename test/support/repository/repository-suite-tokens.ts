import { describe, expect, it } from 'vitest';
import type { IdempotencyRecord, RefreshTokenRecord } from '../../../core/domain/dataset.js';
import { testDataset } from '../domain/test-dataset.js';
import type { RepositoryUnderTest } from './repository-suite.js';

const NOW = new Date('2026-06-01T00:00:00.000Z');
const PAST = '2026-05-01T00:00:00.000Z';
const FUTURE = '2026-07-01T00:00:00.000Z';

function token(hash: string, familyId: string, userId: number, expiresAt: string) {
  const record: RefreshTokenRecord = {
    hash,
    userId,
    familyId,
    createdAt: PAST,
    expiresAt,
    spentAt: null,
  };
  return record;
}

function idempotency(scope: string, expiresAt: string): IdempotencyRecord {
  return {
    scope,
    requestBody: '{}',
    status: 200,
    headers: { etag: '"1"' },
    body: '{}',
    createdAt: PAST,
    expiresAt,
  };
}

/** Refresh tokens (spending, pruning families) and idempotency records (pruning). */
export function describeTokens(subject: RepositoryUnderTest): void {
  const seed = testDataset();
  describe('refresh tokens and idempotency', () => {
    it('spends the unspent tokens of a family, or of a user, and counts them', async () => {
      const { repository } = subject;
      const at = '2026-02-02T00:00:00.000Z';
      await repository.transact(async (tx) => {
        await tx.putRefreshToken(token('f1', 'F', 2, FUTURE));
        await tx.putRefreshToken(token('f2', 'F', 2, FUTURE));
        await tx.putRefreshToken({ ...token('f3', 'F', 2, FUTURE), spentAt: PAST });
      });
      expect(await repository.transact((tx) => tx.spendRefreshTokens({ familyId: 'F' }, at))).toBe(
        2,
      );
      expect((await repository.refreshToken('f1'))?.spentAt).toBe(at);
      expect((await repository.refreshToken('f3'))?.spentAt).toBe(PAST);
      expect(await repository.transact((tx) => tx.spendRefreshTokens({ familyId: 'F' }, at))).toBe(
        0,
      );
      // User 2 still holds t2 unspent (t2-spent was spent in the seed).
      expect(await repository.transact((tx) => tx.spendRefreshTokens({ userId: 2 }, at))).toBe(1);
      expect((await repository.refreshToken('t2'))?.spentAt).toBe(at);
      expect(await repository.refreshToken('t1')).toEqual(seed.refreshTokens['t1']);
      expect(await repository.transact((tx) => tx.spendRefreshTokens({ userId: 99 }, at))).toBe(0);
    });

    it('prunes the families whose every token expired, keeping a family with a live one', async () => {
      const { repository } = subject;
      await repository.transact(async (tx) => {
        await tx.putRefreshToken(token('a1', 'A', 1, PAST));
        await tx.putRefreshToken({ ...token('a2', 'A', 1, FUTURE), spentAt: PAST });
        await tx.putRefreshToken(token('b1', 'B', 1, PAST));
        await tx.putRefreshToken(token('b2', 'B', 2, NOW.toISOString()));
        await tx.putRefreshToken(token('c1', 'C', 2, FUTURE));
      });
      await repository.transact((tx) => tx.pruneExpiredFamilies(NOW));
      expect(await repository.refreshToken('a1')).toBeDefined();
      expect(await repository.refreshToken('a2')).toBeDefined();
      expect(await repository.refreshToken('b1')).toBeUndefined();
      expect(await repository.refreshToken('b2')).toBeUndefined();
      expect(await repository.refreshToken('c1')).toBeDefined();
      // The seed's tokens expire at the end of 2026.
      expect(await repository.refreshToken('t1')).toBeDefined();
      await repository.transact((tx) => tx.pruneExpiredFamilies(new Date('2027-01-01')));
      for (const hash of ['a1', 'a2', 'c1', 't1', 't2', 't2-spent'])
        expect(await repository.refreshToken(hash)).toBeUndefined();
    });

    it('prunes idempotency records expired by now, keeping the live ones', async () => {
      const { repository } = subject;
      await repository.transact(async (tx) => {
        await tx.putIdempotency(idempotency('old', PAST));
        await tx.putIdempotency(idempotency('edge', NOW.toISOString()));
        await tx.putIdempotency(idempotency('live', FUTURE));
      });
      await repository.transact((tx) => tx.pruneExpiredIdempotency(NOW));
      expect(await repository.idempotency('old')).toBeUndefined();
      expect(await repository.idempotency('edge')).toBeUndefined();
      expect(await repository.idempotency('live')).toEqual(idempotency('live', FUTURE));
      expect(await repository.idempotency('scope-1')).toEqual(seed.idempotency['scope-1']);
    });

    it('claims a key that is new or expired, and answers the live record that holds one', async () => {
      const { repository } = subject;
      const held = idempotency('live', FUTURE);
      await repository.transact(async (tx) => {
        await tx.putIdempotency(idempotency('old', PAST));
        await tx.putIdempotency(idempotency('edge', NOW.toISOString()));
        await tx.putIdempotency(held);
      });
      const claim = (scope: string) => ({ ...idempotency(scope, FUTURE), status: 0, body: null });
      const answers = await repository.transact(async (tx) => ({
        fresh: await tx.claimIdempotency(claim('fresh'), NOW),
        old: await tx.claimIdempotency(claim('old'), NOW),
        edge: await tx.claimIdempotency(claim('edge'), NOW),
        live: await tx.claimIdempotency(claim('live'), NOW),
      }));
      expect(answers).toEqual({ fresh: undefined, old: undefined, edge: undefined, live: held });
      // Stored as this store's claims: the store names their holder.
      for (const scope of ['fresh', 'old', 'edge'])
        expect(await repository.idempotency(scope)).toEqual({
          ...claim(scope),
          owner: expect.any(String),
        });
      expect(await repository.idempotency('live')).toEqual(held);
    });

    it('gives a new key to one of many concurrent claims', async () => {
      const { repository } = subject;
      const claims = Array.from({ length: 8 }, (_, i) => ({
        ...idempotency('contested', FUTURE),
        requestBody: `{"n":${i}}`,
        status: 0,
      }));
      const answers = await Promise.all(
        claims.map((record) => repository.transact((tx) => tx.claimIdempotency(record, NOW))),
      );
      const winners = claims.filter((_, i) => answers[i] === undefined);
      expect(winners).toHaveLength(1);
      const won = { ...winners[0], owner: expect.any(String) };
      for (const answer of answers) if (answer !== undefined) expect(answer).toEqual(won);
      expect(await repository.idempotency('contested')).toEqual(won);
    });

    it('replaces an idempotency record and a refresh token with the same key', async () => {
      const { repository } = subject;
      const replaced = { ...idempotency('scope-1', FUTURE), status: 409, body: null };
      await repository.transact(async (tx) => {
        await tx.putIdempotency(replaced);
        await tx.putRefreshToken({ ...seed.refreshTokens['t1']!, spentAt: PAST });
      });
      expect(await repository.idempotency('scope-1')).toEqual(replaced);
      expect((await repository.refreshToken('t1'))?.spentAt).toBe(PAST);
    });
  });
}
