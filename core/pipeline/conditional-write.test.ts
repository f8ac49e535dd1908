import { describe, expect, it } from 'vitest';
import { ApiProblem } from '../domain/api-problem.js';
import type { Precondition } from '../domain/precondition.js';
import { getUserOrder, updateUserOrder } from '../domain/orders-service.js';
import { deleteUser, getUser, replaceUser, updateUser } from '../domain/users-service.js';
import { ADMIN_PRINCIPAL, createTestContext } from '../../test/support/domain/test-context.js';
import { testDataset } from '../../test/support/domain/test-dataset.js';
import { strongETag } from './entity-tag.js';
import { checkPreconditions } from './render-result.js';

/** The precondition a request with `If-Match: <the ETag of body>` carries. */
function ifMatch(body: unknown): Precondition {
  const headers = new Headers({ 'If-Match': strongETag(JSON.stringify(body)) });
  return (current) => checkPreconditions(headers, current);
}

function slugs(results: PromiseSettledResult<unknown>[]): string[] {
  return results.map((result) =>
    result.status === 'fulfilled'
      ? 'ok'
      : result.reason instanceof ApiProblem
        ? result.reason.slug
        : String(result.reason),
  );
}

// Both requests pass the pipeline's early 412 (each read the same ETag before either wrote);
// the write judges the precondition again inside its transaction, so only one can win.
describe('If-Match judged inside the write', () => {
  it('lets one of two PATCHes holding the same ETag win; the other is 412', async () => {
    const { ctx } = createTestContext(testDataset());
    const seen = (await getUser(ctx, 2)).body;
    const results = await Promise.allSettled([
      updateUser(ctx, ADMIN_PRINCIPAL, 2, { name: 'First' }, ifMatch(seen)),
      updateUser(ctx, ADMIN_PRINCIPAL, 2, { name: 'Second' }, ifMatch(seen)),
    ]);
    expect(slugs(results)).toEqual(['ok', 'precondition-failed']);
    expect((await getUser(ctx, 2)).body.name).toBe('First');
  });

  it('refuses a DELETE whose ETag a PUT made stale in between', async () => {
    const { ctx } = createTestContext(testDataset());
    const seen = (await getUser(ctx, 2)).body;
    const results = await Promise.allSettled([
      replaceUser(
        ctx,
        ADMIN_PRINCIPAL,
        2,
        { name: 'Put', email: 'put@example.com' },
        ifMatch(seen),
      ),
      deleteUser(ctx, ADMIN_PRINCIPAL, 2, ifMatch(seen)),
    ]);
    expect(slugs(results)).toEqual(['ok', 'precondition-failed']);
    expect((await getUser(ctx, 2)).body.email).toBe('put@example.com');
  });

  it('judges orders the same way', async () => {
    const { ctx } = createTestContext(testDataset());
    const order = (await getUserOrder(ctx, 2, 1)).body;
    const results = await Promise.allSettled([
      updateUserOrder(ctx, 2, 1, { status: 'PAID' }, ifMatch(order)),
      updateUserOrder(ctx, 2, 1, { status: 'CANCELLED' }, ifMatch(order)),
    ]);
    expect(slugs(results)).toEqual(['ok', 'precondition-failed']);
    expect((await getUserOrder(ctx, 2, 1)).body.status).toBe('PAID');
  });

  it('is 412 for an If-Match on a PUT that would create', async () => {
    const { ctx } = createTestContext(testDataset());
    const put = replaceUser(
      ctx,
      ADMIN_PRINCIPAL,
      77,
      { name: 'N', email: 'n@example.com' },
      ifMatch({}),
    );
    await expect(put).rejects.toMatchObject({ slug: 'precondition-failed' });
  });
});
