import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import type { SpecOperation } from '../../spec/operations.js';
import type { Exchange, PlannedRequest } from '../http/target-client.js';
import type { RunContext } from '../run-context.js';
import { Fixtures } from './fixtures.js';

function operation(
  operationId: string,
  method: SpecOperation['method'],
  path: string,
  links: Record<string, OpenAPIV3.LinkObject> = {},
): SpecOperation {
  const params = [...path.matchAll(/\{([^}]+)\}/g)].map(
    ([, name]) => ({ name, in: 'path', required: true, schema: { type: 'integer' } }) as const,
  );
  return {
    operationId,
    method,
    path,
    tags: [],
    summary: undefined,
    parameters: params as unknown as SpecOperation['parameters'],
    requestBody: undefined,
    responses: { [method === 'post' ? '201' : '204']: { description: 'ok', links } },
    security: [{ bearer: [] }],
    operation: { responses: {} },
  };
}

const deleteUser = operation('deleteUser', 'delete', '/users/{id}');
const deleteOrder = operation('deleteOrder', 'delete', '/users/{userId}/orders/{orderId}');
const createUser = operation('createUser', 'post', '/users', {
  DeleteUser: { operationId: 'deleteUser', parameters: { id: '$response.body#/id' } },
});
const createOrder = operation('createOrder', 'post', '/users/{userId}/orders', {
  DeleteOrder: {
    operationId: 'deleteOrder',
    parameters: { userId: '$request.path.userId', orderId: '$response.body#/id' },
  },
});
const all = [createUser, createOrder, deleteUser, deleteOrder];

function created(id: number): Exchange {
  return {
    request: { method: 'POST', url: 'http://t/users', headers: {} },
    response: { status: 201, headers: {}, body: JSON.stringify({ id }), durationMs: 1 },
    headers: new Headers(),
  };
}

/** Fixtures over a fake target that answers DELETEs from `answer` and records them. */
function setup(answer: (request: PlannedRequest, nth: number) => number) {
  const sent: { path: string; as: string | undefined; status: number }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fixtures = new Fixtures();
  const ctx = {
    allOperations: all,
    operation: (id: string) => all.find((op) => op.operationId === id),
    auth: {
      has: () => true,
      authorization: (who: string) => Promise.resolve(`Bearer ${who}`),
    },
    client: {
      async send(request: PlannedRequest): Promise<Exchange> {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight--;
        const status = answer(request, sent.filter((s) => s.path === request.path).length);
        sent.push({ path: request.path, as: request.headers?.Authorization, status });
        return {
          request: { method: request.method, url: request.path, headers: {} },
          response: { status, headers: {}, body: '', durationMs: 1 },
          headers: new Headers(),
        };
      },
    },
  } as unknown as RunContext;
  fixtures.bind(ctx);
  // Two users, each with two orders, made in the order a run makes them.
  for (const user of [1, 2]) {
    fixtures.adopt(createUser, created(user), {}, {});
    for (const order of [10 * user, 10 * user + 1])
      fixtures.adopt(createOrder, created(order), { userId: user }, {});
  }
  return { fixtures, sent, maxInFlight: () => maxInFlight };
}

describe('Fixtures.cleanup', () => {
  it('deletes every nested resource before any parent, several at a time', async () => {
    const { fixtures, sent, maxInFlight } = setup(() => 204);
    expect(await fixtures.cleanup(3)).toEqual({ deleted: 6, left: 0 });
    const paths = sent.map((s) => s.path);
    expect(paths.slice(0, 4).sort()).toEqual([
      '/users/1/orders/10',
      '/users/1/orders/11',
      '/users/2/orders/20',
      '/users/2/orders/21',
    ]);
    expect(paths.slice(4).sort()).toEqual(['/users/1', '/users/2']);
    expect(maxInFlight()).toBe(3);
    expect(sent.every((s) => s.as === 'Bearer user')).toBe(true);
  });

  it('one at a time without a concurrency, newest first', async () => {
    const { fixtures, sent, maxInFlight } = setup(() => 204);
    await fixtures.cleanup();
    expect(maxInFlight()).toBe(1);
    expect(sent.map((s) => s.path)).toEqual([
      '/users/2/orders/21',
      '/users/2/orders/20',
      '/users/1/orders/11',
      '/users/1/orders/10',
      '/users/2',
      '/users/1',
    ]);
  });

  it('tries the admin after a refusal, and a resource still refused once more at the end', async () => {
    // User 1 is refused (409) on its first two attempts (user and admin), deleted on the third.
    const { fixtures, sent } = setup((request, nth) =>
      request.path === '/users/1' && nth < 2 ? 409 : 204,
    );
    expect(await fixtures.cleanup(4)).toEqual({ deleted: 6, left: 0 });
    const user1 = sent.filter((s) => s.path === '/users/1');
    expect(user1.map((s) => [s.as, s.status])).toEqual([
      ['Bearer user', 409],
      ['Bearer admin', 409],
      ['Bearer user', 204],
    ]);
    expect(sent.at(-1)?.path).toBe('/users/1');
  });

  it('counts a 404 as gone and reports what it could not delete', async () => {
    const { fixtures } = setup((request) =>
      request.path === '/users/2' ? 403 : request.path.endsWith('/10') ? 404 : 204,
    );
    expect(await fixtures.cleanup(4)).toEqual({ deleted: 5, left: 1 });
  });
});

describe('Fixtures, the producers', () => {
  it('are the POSTs whose success answers declare links, each found by its link targets', () => {
    const { fixtures } = setup(() => 204);
    expect(fixtures.producers()).toEqual([createUser, createOrder]);
    expect(fixtures.producersOf(deleteOrder)).toEqual([createOrder]);
    expect(fixtures.producersOf(deleteUser)).toEqual([createUser]);
    expect(fixtures.producersOf(createUser)).toEqual([]);
    expect([createUser, createOrder, deleteUser].map((op) => fixtures.isProducer(op))).toEqual([
      true,
      true,
      false,
    ]);
    // Asked again, the same answers.
    expect(fixtures.producersOf(deleteOrder)).toEqual([createOrder]);
    expect(fixtures.producers()).toEqual([createUser, createOrder]);
  });
});
