import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../../spec/load-spec.js';
import { listOperations, type SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import { resourceIdentity } from './resource-identity.js';

const library = fileURLToPath(new URL('../../../test/second-api/library.yaml', import.meta.url));

/** A run context with what the check reads: the spec, its operations and the target's base. */
async function contextOf(path: string | undefined, basePath: string): Promise<RunContext> {
  const spec = await loadSpec(path);
  const allOperations = listOperations(spec);
  return { spec, allOperations, client: { basePath } } as unknown as RunContext;
}

function exchange(
  method: string,
  url: string,
  sent: unknown,
  status: number,
  answer: unknown,
  headers: Record<string, string> = {},
): Exchange {
  const all = { 'content-type': 'application/json', ...headers };
  return {
    request: {
      method,
      url,
      headers: {},
      ...(sent === undefined ? {} : { body: JSON.stringify(sent) }),
    },
    response: { status, headers: all, body: JSON.stringify(answer), durationMs: 1 },
    headers: new Headers(all),
  };
}

describe('resource_identity on the bundled contract', () => {
  let ctx: RunContext;
  let op: (id: string) => SpecOperation;
  const T = 'http://t/api/v1';
  const user = { id: 7, name: 'Ada', email: 'ada@example.com', age: 36, status: 'INACTIVE' };
  const order = { id: 51, product: 'Keyboard', userId: 2, categoryId: 2, status: 'PENDING' };
  const sentUser = { name: 'Ada', email: 'ada@example.com', age: 36 };
  const sentOrder = { product: 'Keyboard', categoryId: 2, items: [{ product: 'x', quantity: 1 }] };
  const judge = (ex: Exchange, id: string) => resourceIdentity.check(ex, op(id), ctx);

  beforeAll(async () => {
    ctx = await contextOf(undefined, '/api/v1');
    op = (id) => ctx.allOperations.find((o) => o.operationId === id)!;
  });

  it('passes a create whose Location, parent, values and id are the request’s', () => {
    const created = { location: '/api/v1/users/7' };
    expect(
      judge(exchange('POST', `${T}/users`, sentUser, 201, user, created), 'createUser'),
    ).toEqual([]);
    const placed = { location: '/api/v1/users/2/orders/51' };
    expect(
      judge(
        exchange('POST', `${T}/users/2/orders`, sentOrder, 201, order, placed),
        'createUserOrder',
      ),
    ).toEqual([]);
  });

  it('fails a Location naming another id, or the order under another user', () => {
    const next = { location: '/api/v1/users/8' };
    const [failure] = judge(
      exchange('POST', `${T}/users`, sentUser, 201, user, next),
      'createUser',
    );
    expect(failure?.expected).toBe('Location: /api/v1/users/7');
    const other = { location: '/api/v1/users/3/orders/51' };
    expect(
      judge(
        exchange('POST', `${T}/users/2/orders`, sentOrder, 201, order, other),
        'createUserOrder',
      ),
    ).toHaveLength(1);
  });

  it('fails a 201 whose parent member is not the path’s', () => {
    const placed = { location: '/api/v1/users/2/orders/51' };
    const [failure] = judge(
      exchange('POST', `${T}/users/2/orders`, sentOrder, 201, { ...order, userId: 3 }, placed),
      'createUserOrder',
    );
    expect(failure?.message).toMatch(/userId is not the userId/);
  });

  it('fails an answer that does not hold a value sent, and skips read-only members', () => {
    const created = { location: '/api/v1/users/7' };
    const [failure] = judge(
      exchange('POST', `${T}/users`, sentUser, 201, { ...user, name: 'Bob' }, created),
      'createUser',
    );
    expect(failure?.expected).toBe('{"name":"Ada"}');
    const readOnly = { name: 'Ada', status: 'ACTIVE', id: 99 };
    expect(judge(exchange('PATCH', `${T}/users/7`, readOnly, 200, user), 'updateUser')).toEqual([]);
  });

  it('does not compare a PATCH null (a removal) nor a POST answered 200 (an action)', () => {
    expect(
      judge(exchange('PATCH', `${T}/users/7`, { age: null }, 200, user), 'updateUser'),
    ).toEqual([]);
    const refresh = { refreshToken: 'old' };
    const tokens = { accessToken: 'a', refreshToken: 'new', tokenType: 'Bearer', expiresIn: 900 };
    expect(
      judge(exchange('POST', `${T}/auth/refresh`, refresh, 200, tokens), 'refreshToken'),
    ).toEqual([]);
  });

  it('fails a change answered with another resource’s id, at the top level too', () => {
    const [failure] = judge(
      exchange('PATCH', `${T}/users/8`, { name: 'Ada' }, 200, user),
      'updateUser',
    );
    expect(failure?.expected).toBe('id: 8');
    expect(
      judge(exchange('GET', `${T}/orders/52`, undefined, 200, order), 'getOrder'),
    ).toHaveLength(1);
    expect(judge(exchange('GET', `${T}/orders/51`, undefined, 200, order), 'getOrder')).toEqual([]);
  });

  it('holds a 201 to PUT to the request’s own path', () => {
    const at = { location: '/api/v1/users/7' };
    expect(judge(exchange('PUT', `${T}/users/7`, sentUser, 201, user, at), 'replaceUser')).toEqual(
      [],
    );
    const elsewhere = { location: '/api/v1/users/8' };
    expect(
      judge(exchange('PUT', `${T}/users/7`, sentUser, 201, user, elsewhere), 'replaceUser'),
    ).toHaveLength(1);
  });
});

describe('resource_identity on the second API (string ids, books read at the top level)', () => {
  it('reads the Location of a book made under its author from the answer’s link', async () => {
    const ctx = await contextOf(library, '/lib');
    const create = ctx.allOperations.find((o) => o.operationId === 'createAuthorBook')!;
    const sent = { title: 'The Dispossessed', isbn: '9780061054884', genreId: 'sf', year: 1974 };
    const book = { id: 'b-1', authorId: 'a-1', ...sent };
    const judge = (location: string) =>
      resourceIdentity.check(
        exchange('POST', 'http://t/lib/authors/a-1/books', sent, 201, book, { location }),
        create,
        ctx,
      );
    expect(judge('/lib/books/b-1')).toEqual([]);
    expect(judge('/lib/books/b-2')).toHaveLength(1);
  });
});
