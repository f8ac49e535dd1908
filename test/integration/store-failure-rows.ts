import { expect } from 'vitest';
import { TEST_USER_PASSWORD } from '../start-test-server.js';
import type { FailingAdapter } from '../support/store/failing-adapter.js';
import type { Dataset } from '../../core/domain/dataset.js';
import { expectContract } from './contract-checks.js';
import { describeResponse, exchange } from './exchange.js';
import { buildRequest, pairKey, type OperationRow, type RowEnv } from './operation-row.js';

/** A write that answers 503 while the disk fails, and `recovers` once it is healed. */
export interface StoreFailureRow extends OperationRow {
  status: 503;
  recovers: number;
}

const write = (
  operationId: string,
  recovers: number,
  request: OperationRow['request'],
  setup?: OperationRow['setup'],
): StoreFailureRow => ({
  operationId,
  status: 503,
  recovers,
  name: 'the store cannot be written; the same request succeeds once it can',
  request,
  ...(setup ? { setup } : {}),
});

/** Every operation that writes, each on state where it really writes (no no-op). */
export const storeFailureRows: StoreFailureRow[] = [
  write(
    'createUser',
    201,
    { method: 'POST', path: '/users', json: { name: 'Disk Full', email: '{email}' } },
    async (fx) => ({ email: fx.uniqueEmail() }),
  ),
  write(
    'replaceUser',
    200,
    { method: 'PUT', path: '/users/{id}', json: { name: 'Replaced', email: '{email}' } },
    async (fx) => ({ id: (await fx.newUser()).id, email: fx.uniqueEmail() }),
  ),
  write('deleteUser', 204, { method: 'DELETE', path: '/users/{id}' }, async (fx) => ({
    id: (await fx.newUser()).id,
  })),
  write(
    'updateUser',
    200,
    { method: 'PATCH', path: '/users/{id}', json: { name: 'Patched' } },
    async (fx) => ({ id: (await fx.newUser()).id }),
  ),
  write('activateUser', 200, { method: 'POST', path: '/users/{id}/activate' }, async (fx) => ({
    id: (await fx.newUser()).id,
  })),
  write(
    'createUserOrder',
    201,
    { method: 'POST', path: '/users/{id}/orders', json: { product: 'Dune', categoryId: 1 } },
    async (fx) => ({ id: (await fx.newUser()).id }),
  ),
  write(
    'replaceUserOrder',
    200,
    {
      method: 'PUT',
      path: '/users/{userId}/orders/{orderId}',
      json: { product: 'Replaced', categoryId: 2 },
    },
    (fx) => fx.userWithOrder(),
  ),
  write(
    'deleteUserOrder',
    204,
    { method: 'DELETE', path: '/users/{userId}/orders/{orderId}' },
    (fx) => fx.userWithOrder(),
  ),
  write(
    'updateUserOrder',
    200,
    { method: 'PATCH', path: '/users/{userId}/orders/{orderId}', json: { status: 'PAID' } },
    (fx) => fx.userWithOrder(),
  ),
  write('cancelOrder', 200, { method: 'POST', path: '/orders/{orderId}/cancel' }, (fx) =>
    fx.userWithOrder(),
  ),
  write('assignUserRole', 204, { method: 'PUT', path: '/users/{id}/roles/2' }, async (fx) => ({
    id: (await fx.newUser()).id,
  })),
  write('removeUserRole', 204, { method: 'DELETE', path: '/users/{id}/roles/2' }, async (fx) => {
    const { id } = await fx.newUser();
    await fx.expect(204, 'PUT', `/users/${id}/roles/2`);
    return { id };
  }),
  write('login', 200, {
    method: 'POST',
    path: '/auth/login',
    json: { username: 'user@example.com', password: TEST_USER_PASSWORD },
  }),
  write(
    'refreshToken',
    200,
    { method: 'POST', path: '/auth/refresh', json: { refreshToken: '{refreshToken}' } },
    async (fx) => ({ refreshToken: (await fx.loginAsUser()).refreshToken }),
  ),
  write(
    'logout',
    204,
    { method: 'POST', path: '/auth/logout', json: { refreshToken: '{refreshToken}' } },
    async (fx) => ({ refreshToken: (await fx.loginAsUser()).refreshToken }),
  ),
  write('blockUser', 200, { method: 'POST', path: '/admin/users/{id}/block' }, async (fx) => ({
    id: (await fx.newUser()).id,
  })),
  write('unblockUser', 200, { method: 'POST', path: '/admin/users/{id}/unblock' }, async (fx) => {
    const { id } = await fx.newUser();
    await fx.block(id);
    return { id };
  }),
  write('resetData', 204, { method: 'POST', path: '/admin/reset' }),
];

/**
 * Runs a store-failure row: setup on a healthy disk, the request while writes fail (503
 * problem with Retry-After), then the very same request once the disk is healed, which must
 * succeed, showing that the refused write left nothing behind and the store recovered.
 */
export async function runStoreFailureRow(
  env: RowEnv,
  disk: FailingAdapter<Dataset>,
  row: StoreFailureRow,
  requestId: string,
): Promise<void> {
  const op = env.operations.get(row.operationId);
  if (!op) throw new Error(`row names an unknown operation ${row.operationId}`);
  const vars = row.setup ? await row.setup(env.fx) : {};
  const sent = buildRequest(env, op, row, vars, requestId);
  disk.failWrites();
  let failed;
  try {
    failed = await exchange(sent);
  } finally {
    disk.healWrites();
  }
  expect(failed.status, `${sent.method} ${sent.url}: ${describeResponse(failed)}`).toBe(503);
  env.reached.add(pairKey(row.operationId, failed.status));
  expect(env.validator.validate(row.operationId, failed)).toEqual([]);
  await expectContract({ fx: env.fx, op, sent, res: failed });

  const retry = { ...sent, headers: { ...sent.headers, 'X-Request-Id': `${requestId}-retry` } };
  const recovered = await exchange(retry);
  expect(recovered.status, `retry: ${describeResponse(recovered)}`).toBe(row.recovers);
  expect(env.validator.validate(row.operationId, recovered)).toEqual([]);
  await expectContract({ fx: env.fx, op, sent: retry, res: recovered });
}
