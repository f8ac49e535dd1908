import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../../spec/load-spec.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import { embeddedDisagreements } from '../support/embedded-agreement.js';
import { fixedCatalogAnswers } from './fixed-catalog-answers.js';
import { pageLinksEverywhere } from './page-links-everywhere.js';
import { sameValidatorSameBody } from './same-validator-same-body.js';

function exchange(
  url: string,
  body: string,
  headers: Record<string, string> = {},
  request: { method?: string; headers?: Record<string, string> } = {},
): Exchange {
  return {
    request: { method: request.method ?? 'GET', url, headers: request.headers ?? {} },
    response: { status: 200, headers, body, durationMs: 1 },
    headers: new Headers({ 'content-type': 'application/json', ...headers }),
  };
}

const anyOp = { operationId: 'getThing', method: 'get' } as SpecOperation;
const freshRun = () => ({ spec: {} as OpenApiDocument }) as RunContext;

describe('same_validator_same_body', () => {
  const judge = (ctx: RunContext, ...answers: Exchange[]) =>
    answers.map((a) => sameValidatorSameBody.check(a, anyOp, ctx).length);
  const url = 'http://t/api/things/1';

  it('fails a second body under the same strong tag, not under another tag', () => {
    const tag = { etag: '"a"' };
    expect(
      judge(
        freshRun(),
        exchange(url, '{"name":"A"}', tag),
        exchange(url, '{"name":"A"}', tag),
        exchange(url, '{"name":"B"}', tag),
        exchange(url, '{"name":"B"}', { etag: '"b"' }),
      ),
    ).toEqual([0, 0, 1, 0]);
  });

  it('compares weak tags as JSON, key order aside, and item order not', () => {
    const tag = { etag: 'W/"l"' };
    expect(
      judge(
        freshRun(),
        exchange(url, '[{"a":1,"b":2},{"a":3}]', tag),
        exchange(url, '[{"b":2,"a":1},{"a":3}]', tag),
        exchange(url, '[{"a":3},{"a":1,"b":2}]', tag),
      ),
    ).toEqual([0, 0, 1]);
  });

  it('keeps apart other queries, credentials, Accept, the headers Vary names, and runs', () => {
    const tag = { etag: '"a"', vary: 'Origin' };
    const as = (headers: Record<string, string>, body: string, u = url) =>
      exchange(u, body, tag, { headers });
    const ctx = freshRun();
    expect(
      judge(
        ctx,
        as({ Authorization: 'Bearer 1' }, '1'),
        as({ Authorization: 'Bearer 2' }, '2'),
        as({ Authorization: 'Bearer 1', Accept: 'text/plain' }, '3'),
        as({ Authorization: 'Bearer 1', Origin: 'https://o' }, '4'),
        as({ Authorization: 'Bearer 1' }, '5', `${url}?x=1`),
      ),
    ).toEqual([0, 0, 0, 0, 0]);
    expect(judge(freshRun(), as({ Authorization: 'Bearer 1' }, '6'))).toEqual([0]);
  });

  it('leaves HEAD and Vary: * alone', () => {
    const ctx = freshRun();
    const head = (body: string) => exchange(url, body, { etag: '"a"' }, { method: 'HEAD' });
    const star = (body: string) => exchange(url, body, { etag: '"s"', vary: '*' });
    expect(judge(ctx, head(''), head('x'), star('1'), star('2'))).toEqual([0, 0, 0, 0]);
  });
});

describe('fixed_catalog_answers', () => {
  const catalog = [
    { id: 1, name: 'USER' },
    { id: 2, name: 'ADMIN' },
  ];
  const op = {
    operationId: 'listRoles',
    method: 'get',
    operation: {},
    responses: {
      '200': { description: '', content: { 'application/json': { example: catalog } } },
    },
  } as unknown as SpecOperation;
  const spec = { 'x-apikit-roles': { fixedCatalog: true, catalog: 'listRoles' } };
  const roles = {
    spec: {
      ...spec,
      'x-apikit-roles': { ...spec['x-apikit-roles'], list: 'l', assign: 'a', remove: 'r' },
    },
  } as unknown as RunContext;
  const answer = (body: unknown) =>
    fixedCatalogAnswers.check(exchange('http://t/roles?x=1', JSON.stringify(body)), op, roles);

  it('fails any 200 of the catalog that is not its example, in order', () => {
    expect(answer(catalog)).toEqual([]);
    expect(answer(catalog.slice(1))).toHaveLength(1);
    expect(answer([...catalog].reverse())).toHaveLength(1);
  });

  it('judges no operation that is not a fixed catalog', () => {
    const other = { ...op, operationId: 'listThings' };
    expect(fixedCatalogAnswers.check(exchange('http://t/x', '[]'), other, roles)).toEqual([]);
  });
});

describe('page_links', () => {
  const int = { type: 'integer' };
  const op = {
    operationId: 'listThings',
    method: 'get',
    parameters: [
      { name: 'page', in: 'query', schema: { ...int, default: 0 } },
      { name: 'size', in: 'query', schema: { ...int, default: 2 } },
      { name: 'sort', in: 'query', schema: { type: 'string' } },
    ],
    responses: {
      '200': {
        description: '',
        headers: { Link: { description: 'first, prev, next and last', schema: {} } },
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { content: { type: 'array', items: {} }, totalElements: int },
            },
          },
        },
      },
    },
  } as unknown as SpecOperation;
  const page = (query: string, link: string) =>
    pageLinksEverywhere.check(
      exchange(`http://t/api/things?${query}`, '{"content":[],"totalPages":3}', { link }),
      op,
      {} as RunContext,
    );
  const links = (p: number, rels: string[]) =>
    rels
      .map((rel) => {
        const to = { first: 0, prev: p - 1, next: p + 1, last: 2 }[rel];
        return `</api/things?sort=name&page=${to}&size=2>; rel="${rel}"`;
      })
      .join(', ');

  it('accepts the relations in range, keeping the query', () => {
    expect(page('sort=name&page=1&size=2', links(1, ['first', 'prev', 'next', 'last']))).toEqual(
      [],
    );
    expect(page('sort=name&size=2', links(0, ['first', 'next', 'last']))).toEqual([]);
  });

  it('fails a page without rel="last" or with a link dropping the sort', () => {
    expect(page('sort=name&page=1&size=2', links(1, ['first', 'prev', 'next']))).toHaveLength(1);
    const dropped = links(2, ['first', 'prev', 'last']).replaceAll('sort=name&', '');
    expect(page('sort=name&page=2&size=2', dropped)).toHaveLength(1);
  });
});

describe('embeddedDisagreements', () => {
  const read = (query: string, body: unknown) =>
    exchange(`http://t/orders/1?${query}`, JSON.stringify(body));
  const items = [{ id: 1 }, { id: 2 }];

  it('accepts the same items in any order, and answers without them', () => {
    const answers = [
      read('', { id: 1 }),
      read('expand=items', { items }),
      read('expand=user,items', { user: { id: 9 }, items: [...items].reverse() }),
    ];
    expect(embeddedDisagreements(answers, ['user', 'items'])).toEqual([]);
  });

  it('finds an item missing or doubled in one answer', () => {
    const answers = [
      read('expand=items', { items }),
      read('expand=user,items', { items: [items[0]] }),
      read('expand=items&expand=user', { items: [items[0], items[0]] }),
    ];
    expect(embeddedDisagreements(answers, ['items']).map((d) => d.res)).toEqual(answers.slice(1));
  });
});
