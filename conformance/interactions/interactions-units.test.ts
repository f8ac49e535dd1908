import { describe, expect, it } from 'vitest';
import {
  INTERACTION_FORMAT,
  VARYING,
  type InteractionFile,
  type RecordedInteraction,
} from '../../spec/interactions/interaction-file.js';
import { listOperations } from '../../spec/operations.js';
import { loadSpec } from '../../spec/load-spec.js';
import { consumerCoverage } from './consumer-coverage.js';
import { routeOf } from './judge-answer.js';
import { cannedReason } from './consumer-interactions.js';
import { replayCall, unsendable } from './replay-request.js';
import { matchPath } from './replay-state.js';
import { compareShapes, fieldPaths } from './value-shape.js';

const file: InteractionFile = {
  format: INTERACTION_FORMAT,
  consumer: 'app',
  contract: { title: 'User/Order Service', version: '1.0.0' },
  interactions: [
    {
      key: 'listUsers 200 abc123',
      operationId: 'listUsers',
      request: {
        method: 'GET',
        path: '/api/v1/users',
        query: [['size', '2']],
        headers: { authorization: 'Bearer <access-token>' },
      },
      response: {
        status: 200,
        headers: { 'content-type': 'application/json', etag: 'W/"1"' },
        body: {
          content: [
            { id: 1, age: null },
            { id: 2, age: 3 },
          ],
          page: 0,
        },
      },
      tests: [{ file: 'src/a.test.ts', name: 'a > lists' }],
    },
  ],
};

describe('compareShapes', () => {
  it('finds missing and retyped fields, recursively, arrays by items', () => {
    const seen = { id: 1, user: { name: 'a', tags: ['x'] }, items: [{ q: 1 }] };
    expect(
      compareShapes(seen, {
        id: 2,
        user: { name: 'b', tags: ['y', 'z'] },
        items: [{ q: 5 }],
        extra: true,
      }),
    ).toEqual({ differences: [], unjudged: [] });
    expect(compareShapes(seen, { id: '2', user: { tags: [1] }, items: [{}] }).differences).toEqual([
      'id: number expected, string came back',
      'user.name: missing',
      'user.tags[]: string expected, number came back',
      'items[].q: missing',
    ]);
  });
  it('leaves nulls to the schema, and says when a list came back empty', () => {
    expect(compareShapes({ age: null, n: 1 }, { age: 3, n: null }).differences).toEqual([]);
    expect(compareShapes({ list: [{ a: 1 }] }, { list: [] })).toEqual({
      differences: [],
      unjudged: ['list[]'],
    });
  });
  it('requires only the fields every recorded item had', () => {
    expect(compareShapes([{ a: 1, b: 2 }, { a: 3 }], [{ a: 9 }]).differences).toEqual([]);
    expect(compareShapes([{ a: 1, b: 2 }, { a: 3 }], [{ b: 9 }]).differences).toEqual([
      '[].a: missing',
    ]);
  });
  it('lists the field paths a body touches', () => {
    expect(fieldPaths({ content: [{ id: 1 }, { id: null }], page: 0 })).toEqual([
      { path: 'content', types: ['array'] },
      { path: 'content[]', types: ['object'] },
      { path: 'content[].id', types: ['null', 'number'] },
      { path: 'page', types: ['number'] },
    ]);
  });
});

describe('values of the moment (<varies>)', () => {
  const base = file.interactions[0]!;
  const withRequest = (request: Partial<RecordedInteraction['request']>): RecordedInteraction => ({
    ...base,
    request: { ...base.request, ...request },
  });
  it('stand for any string in an answer: present, value not compared', () => {
    const seen = { requestId: VARYING, createdAt: VARYING, items: [{ at: VARYING }] };
    expect(
      compareShapes(seen, { requestId: 'r-9', createdAt: null, items: [{ at: 'x' }] }).differences,
    ).toEqual([]);
    expect(compareShapes(seen, { createdAt: 5, items: [{}] }).differences).toEqual([
      'requestId: missing',
      'createdAt: string expected, number came back',
      'items[].at: missing',
    ]);
  });
  it('are never sent: validators and keys are the replay’s own, elsewhere the replay skips', () => {
    const conditional = withRequest({
      headers: {
        'if-none-match': VARYING,
        'idempotency-key': VARYING,
        'x-request-id': VARYING,
        authorization: 'Bearer <access-token>',
      },
    });
    expect(unsendable(conditional)).toBeUndefined();
    const call = replayCall({ operation: {} } as never, conditional, {
      path: { values: {}, mapped: new Map(), resource: undefined },
      tag: 't1',
      accessToken: undefined,
      login: undefined,
      refreshToken: undefined,
    });
    expect(JSON.stringify(call)).not.toContain(VARYING);
    expect(call.headers).toEqual({
      'Idempotency-Key': 'apikit-replay-t1',
      'X-Request-Id': 'apikit-replay-t1',
    });
    const elsewhere = withRequest({
      query: [['since', VARYING]],
      headers: { 'x-trace': VARYING },
      body: { note: 'x', at: [{ when: VARYING }] },
    });
    expect(unsendable(elsewhere)?.reason).toMatch(
      /"<varies>" in the header x-trace, the query parameter since, the body's at\[\]\.when/,
    );
  });
});

describe('canned answers', () => {
  it('are named by how the test forced them', () => {
    const base = file.interactions[0]!;
    expect(cannedReason({ ...base, canned: 'override' })).toBe(
      "the frontend's test forced this answer with mock.override; a backend is not expected to give it",
    );
    const prefer = { ...base, canned: 'prefer' as const };
    prefer.request = { ...base.request, headers: { prefer: 'code=404' } };
    expect(cannedReason(prefer)).toMatch(/forced this answer with Prefer: code=404; a backend/);
  });
});

describe('matchPath and routeOf', () => {
  it('reads the recorded ids whatever the base', () => {
    expect(matchPath('/users/{userId}/orders/{orderId}', '/api/v1/users/12/orders/40')).toEqual({
      userId: '12',
      orderId: '40',
    });
    expect(matchPath('/users/{id}', '/api/users/7')).toEqual({ id: '7' });
    expect(matchPath('/users/{id}', '/api/v1/users/7/activate')).toBeUndefined();
    expect(matchPath('/users', '/api/v1/users')).toEqual({});
  });
  it('compares Location by route, not by id or gateway prefix', () => {
    expect(routeOf('/api/v1/users/42', '/api/v1')).toBe('/users/{}');
    expect(routeOf('http://host/svc/api/v1/users/7', '/api/v1')).toBe('/users/{}');
  });
});

describe('consumerCoverage', () => {
  it('lists what the recording uses, with the tests relying on it', async () => {
    const spec = await loadSpec();
    const coverage = consumerCoverage(
      file,
      listOperations(spec),
      spec.info,
      new Map([['listUsers 200 abc123', 'passed']]),
    );
    expect(coverage.interactions).toEqual({ total: 1, passed: 1, failed: 0, skipped: 0 });
    expect(coverage.contract.sameAsRun).toBe(true);
    const [op] = coverage.operations;
    expect(op?.operationId).toBe('listUsers');
    expect(op?.uses.map((u) => `${u.in} ${u.name}`)).toEqual([
      'query size',
      'header authorization',
      'response-header content-type',
      'response-header etag',
      'response-body content',
      'response-body content[]',
      'response-body content[].age',
      'response-body content[].id',
      'response-body page',
    ]);
    expect(op?.uses[0]?.tests).toEqual(['src/a.test.ts > a > lists']);
    expect(coverage.unused).toContain('deleteUser');
  });
});
