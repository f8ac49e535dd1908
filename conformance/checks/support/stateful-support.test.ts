import { describe, expect, it } from 'vitest';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import { identity, itemsOf, listShape } from './list-shape.js';
import { pageLinkProblems } from './page-links.js';
import { differences, volatileProperties, weakMatch, type Schema } from './stateful-support.js';

const user: Schema = {
  type: 'object',
  properties: {
    id: { type: 'integer', readOnly: true },
    name: { type: 'string' },
    version: { type: 'integer', readOnly: true },
    createdAt: { type: 'string', format: 'date-time', readOnly: true },
    due: { type: 'string', format: 'date-time' },
    status: { readOnly: true, allOf: [{ type: 'string', enum: ['A'] }] },
  },
};

function op(schema: Schema, linkDescription = 'first, prev, next and last'): SpecOperation {
  return {
    operationId: 'list',
    method: 'get',
    path: '/things',
    tags: [],
    summary: undefined,
    parameters: [],
    requestBody: undefined,
    responses: {
      '200': {
        description: 'ok',
        headers: { Link: { description: linkDescription, schema: { type: 'string' } } },
        content: { 'application/json': { schema } },
      },
    },
    security: [],
    operation: { responses: {} },
  };
}

function exchange(url: string, link: string | null): Exchange {
  const headers = new Headers(link ? { link } : {});
  return {
    request: { method: 'GET', url, headers: {} },
    response: { status: 200, headers: Object.fromEntries(headers), body: '[]', durationMs: 1 },
    headers,
  };
}

describe('volatileProperties', () => {
  it('holds read-only timestamps and revision counters, nothing a client writes', () => {
    expect([...volatileProperties(user)].sort()).toEqual(['createdAt', 'version']);
  });
});

describe('differences', () => {
  it('names the top-level properties that differ, ignoring the given ones', () => {
    expect(differences({ a: 1, b: [1], c: 3 }, { a: 1, b: [2], d: 4 }, new Set(['c']))).toEqual([
      'b',
      'd',
    ]);
    expect(differences('x', 'x')).toEqual([]);
    expect(differences('x', { a: 1 })).toEqual(['(the whole body)']);
  });
});

describe('weakMatch', () => {
  it.each([
    ['W/"a"', '"a"', true],
    ['"a"', '"a"', true],
    ['"a"', '"b"', false],
    [null, '"a"', false],
  ])('%s ~ %s: %s', (a, b, expected) => expect(weakMatch(a, b)).toBe(expected));
});

describe('listShape', () => {
  it('finds the items of plain arrays and of pages, not of resources holding an array', () => {
    expect(listShape(op({ type: 'array', items: user }))?.property).toBeUndefined();
    const page = listShape(
      op({
        type: 'object',
        properties: { content: { type: 'array', items: user }, totalElements: { type: 'integer' } },
      }),
    );
    expect(page?.property).toBe('content');
    expect(itemsOf(page!, { content: [{ id: 1 }] })).toEqual([{ id: 1 }]);
    expect(
      listShape(
        op({
          type: 'object',
          properties: { id: { type: 'integer' }, items: { type: 'array', items: {} } },
        }),
      ),
    ).toBeUndefined();
  });

  it('tells items apart by id, else by their JSON', () => {
    expect(identity({ id: 3, a: 1 })).toBe('id 3');
    expect(identity({ a: 1 })).toBe('{"a":1}');
  });
});

describe('pageLinkProblems', () => {
  const context = { op: op({ type: 'array', items: {} }), base: 0, pageName: 'page', lastIndex: 2 };
  const url = 'http://x.test/api/things?page=1&size=2';

  it('accepts a complete, consistent Link header', () => {
    const link =
      '</api/things?page=0&size=2>; rel="first", </api/things?page=0&size=2>; rel="prev", ' +
      '</api/things?page=2&size=2>; rel="next", </api/things?page=2&size=2>; rel="last"';
    expect(pageLinkProblems(exchange(url, link), 1, { size: '2' }, context)).toEqual([]);
  });

  it('reports missing relations, wrong pages and dropped parameters', () => {
    const link = '</api/things?page=0>; rel="first", </api/things?page=3&size=2>; rel="next"';
    expect(pageLinkProblems(exchange(url, link), 1, { size: '2' }, context)).toEqual([
      'page 1 has no rel="last" link',
      'page 1 has no rel="prev" link',
      'the rel="first" link of page 1 does not keep size=2',
      'the rel="next" link of page 1 points to page=3, not 2',
    ]);
  });

  it('wants no next on the last page, and judges prev only where the spec mentions it', () => {
    const link = '</a?page=0>; rel="first", </a?page=2>; rel="last", </a?page=3>; rel="next"';
    const quiet = { ...context, op: op({ type: 'array', items: {} }, 'first, next and last') };
    expect(pageLinkProblems(exchange(url, link), 2, {}, quiet)).toEqual([
      'page 2 (last page 2) has a rel="next" link',
    ]);
  });
});
