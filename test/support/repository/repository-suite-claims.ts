import { describe, expect, it } from 'vitest';
import type { IdempotencyRecord } from '../../../core/domain/dataset.js';
import type { RepositoryUnderTest } from './repository-suite.js';

const NOW = new Date('2026-06-01T00:00:00.000Z');
const LEASE_END = '2026-06-01T00:01:00.000Z';
const DAY_LATER = '2026-06-02T00:00:00.000Z';

function claim(scope: string, createdAt = NOW.toISOString()): IdempotencyRecord {
  return {
    scope,
    requestBody: '{"n":1}',
    status: 0,
    headers: {},
    body: null,
    createdAt,
    expiresAt: LEASE_END,
  };
}

function answer(scope: string, status = 201): IdempotencyRecord {
  return {
    ...claim(scope),
    status,
    headers: { Location: '/api/v1/users/9' },
    body: '{"id":9}',
    expiresAt: DAY_LATER,
  };
}

/**
 * Idempotency-Key claims and their answers (decision 0109): an answer replaces only the claim
 * it was made under, in the transaction of its write, and a claim whose holder is gone is free
 * at once. "Gone" is a holder the store can tell is not running: a number no instance holds
 * on PostgreSQL, any other process's on a data set one process holds.
 */
export function describeClaims(subject: RepositoryUnderTest): void {
  describe('Idempotency-Key claims and answers', () => {
    it('replaces its own claim with the answer, once', async () => {
      const { repository } = subject;
      await repository.transact((tx) => tx.claimIdempotency(claim('k'), NOW));
      const settled = await repository.transact((tx) =>
        tx.settleIdempotency(claim('k'), answer('k')),
      );
      expect(settled).toBe(true);
      expect(await repository.idempotency('k')).toEqual(answer('k'));
      const again = await repository.transact((tx) =>
        tx.settleIdempotency(claim('k'), answer('k', 500)),
      );
      expect(again).toBe(false);
      expect(await repository.idempotency('k')).toEqual(answer('k'));
    });

    it('leaves the claim when the transaction of the answer rolls back', async () => {
      const { repository } = subject;
      await repository.transact((tx) => tx.claimIdempotency(claim('k'), NOW));
      const failed = repository.transact(async (tx) => {
        await tx.settleIdempotency(claim('k'), answer('k'));
        throw new Error('the write failed after the answer was put');
      });
      await expect(failed).rejects.toThrow('the write failed');
      expect(await repository.idempotency('k')).toMatchObject({ status: 0, body: null });
    });

    it('does not replace a claim taken again after its lease, nor another holder`s', async () => {
      const { repository } = subject;
      await repository.transact((tx) => tx.claimIdempotency(claim('k'), NOW));
      const later = new Date(Date.parse(LEASE_END) + 1);
      const retaken = { ...claim('k', later.toISOString()), expiresAt: DAY_LATER };
      expect(await repository.transact((tx) => tx.claimIdempotency(retaken, later))).toBe(
        undefined,
      );
      expect(await repository.transact((tx) => tx.settleIdempotency(claim('k'), answer('k')))).toBe(
        false,
      );
      expect(await repository.idempotency('k')).toMatchObject({
        status: 0,
        createdAt: later.toISOString(),
      });
      const foreign = { ...claim('f'), owner: '999999' };
      await repository.transact((tx) => tx.putIdempotency(foreign));
      expect(await repository.transact((tx) => tx.settleIdempotency(claim('f'), answer('f')))).toBe(
        false,
      );
    });

    it('stores the answer where the scope holds nothing (its claim pruned)', async () => {
      const { repository } = subject;
      expect(await repository.transact((tx) => tx.settleIdempotency(claim('k'), answer('k')))).toBe(
        true,
      );
      expect(await repository.idempotency('k')).toEqual(answer('k'));
    });

    it('frees at once a live claim whose holder is gone, and only that one', async () => {
      const { repository } = subject;
      const gone = { ...claim('gone'), owner: '999999' };
      const leased = claim('leased');
      await repository.transact(async (tx) => {
        await tx.putIdempotency(gone);
        await tx.putIdempotency(leased); // no holder recorded: held until its lease runs out
      });
      const mine = { ...claim('gone'), requestBody: '{"n":2}' };
      expect(await repository.transact((tx) => tx.claimIdempotency(mine, NOW))).toBe(undefined);
      const taken = await repository.idempotency('gone');
      expect(taken).toMatchObject({ requestBody: '{"n":2}', owner: expect.any(String) });
      expect(taken?.owner).not.toBe('999999');
      const held = await repository.transact((tx) => tx.claimIdempotency(claim('leased'), NOW));
      expect(held).toEqual(leased);
      // Its own claims it holds: a second claim of this store is answered the first.
      const second = await repository.transact((tx) => tx.claimIdempotency(claim('gone'), NOW));
      expect(second).toEqual(taken);
    });
  });
}
