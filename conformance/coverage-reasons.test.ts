import { describe, expect, it } from 'vitest';
import type { SpecOperation } from '../spec/operations.js';
import {
  explainUnexercised,
  FULL_RUN_FACTS,
  isExercised,
  type CoverageFacts,
  type CoverageReason,
} from './coverage-reasons.js';
import { coverageTotals, notReachedPairs } from './coverage-totals.js';

function op(
  method: SpecOperation['method'],
  extra: { role?: string; open?: boolean; parameters?: boolean; body?: boolean } = {},
): SpecOperation {
  return {
    operationId: `${method}Thing`,
    method,
    path: '/things/{id}',
    tags: [],
    summary: undefined,
    parameters: extra.parameters === false ? [] : [{ name: 'id', in: 'path', required: true }],
    requestBody: extra.body ? { content: {} } : undefined,
    responses: {},
    security: extra.open ? [] : [{ bearerAuth: [] }],
    operation: extra.role ? { 'x-apikit-role': extra.role, responses: {} } : { responses: {} },
  } as SpecOperation;
}

const facts = (more: Partial<CoverageFacts> = {}): CoverageFacts => ({
  ...FULL_RUN_FACTS,
  ...more,
});

describe('why a documented status was not received', () => {
  const cases: [string, SpecOperation, string, CoverageFacts, CoverageReason][] = [
    ['a 500', op('get'), '500', facts(), 'server-fault'],
    ['a 503', op('get'), '503', facts(), 'server-fault'],
    ['a 501 can be provoked (an unimplemented method)', op('get'), '501', facts(), 'not-reached'],
    ['a 429 from a target without limits', op('get'), '429', facts(), 'rate-limit-off'],
    [
      'a 429 from a target that announced limits',
      op('get'),
      '429',
      facts({ rateLimited: true }),
      'rate-limit-paced',
    ],
    [
      'a 200 of a secured operation, no credential',
      op('get'),
      '200',
      facts({ user: false, admin: false }),
      'no-credentials',
    ],
    [
      'a 401 needs no credential',
      op('get'),
      '401',
      facts({ user: false, admin: false }),
      'not-reached',
    ],
    [
      'a 200 of an open operation, no credential',
      op('get', { open: true }),
      '200',
      facts({ user: false, admin: false }),
      'not-reached',
    ],
    [
      'a 200 of a role-bound operation, no admin',
      op('post', { role: 'ADMIN' }),
      '200',
      facts({ admin: false }),
      'no-credentials',
    ],
    [
      'a 403 of a role-bound operation, admin only',
      op('post', { role: 'ADMIN' }),
      '403',
      facts({ user: false }),
      'no-credentials',
    ],
    [
      'a 403 of the login operation',
      op('post', { open: true }),
      '403',
      facts({ loginOperationId: 'postThing' }),
      'no-credentials',
    ],
    ['a 404 of OPTIONS', op('options', { open: true }), '404', facts(), 'route-always-matches'],
    ['a 404 of GET', op('get'), '404', facts(), 'not-reached'],
    [
      'a 400 with no input, unknown parameters not refused',
      op('get', { parameters: false }),
      '400',
      facts(),
      'no-input-to-break',
    ],
    [
      'a 400 with no input, unknown parameters refused',
      op('get', { parameters: false }),
      '400',
      facts({ unknownQueryRefused: true }),
      'not-reached',
    ],
    [
      'a 400 with a body',
      op('post', { parameters: false, body: true }),
      '400',
      facts(),
      'not-reached',
    ],
    ['a 409', op('post'), '409', facts(), 'needs-domain-knowledge'],
    ['default', op('get'), 'default', facts(), 'catch-all'],
    [
      'a gap in a run cut short',
      op('get'),
      '404',
      facts({ incomplete: 'interrupted' }),
      'run-incomplete',
    ],
    [
      'a gap in a run of some checks',
      op('get'),
      '404',
      facts({ checksNarrowed: true }),
      'check-not-selected',
    ],
  ];
  it.each(cases)('%s', (_name, operation, status, known, reason) => {
    const why = explainUnexercised(operation, status, known);
    expect(why.reason).toBe(reason);
    expect(why.detail.length).toBeGreaterThan(20);
  });
});

describe('the coverage in numbers', () => {
  const rows = [
    {
      operationId: 'getThing',
      method: 'GET',
      path: '/things/{id}',
      documented: ['200', '404', '4XX', '500', 'default'],
      exercised: ['200', '418'],
      undocumented: [],
      unexercised: [
        { status: '404', reason: 'not-reached' as const, detail: 'x' },
        { status: '500', reason: 'server-fault' as const, detail: 'x' },
        { status: 'default', reason: 'catch-all' as const, detail: 'x' },
      ],
    },
    // A row of an older report, without reasons: its missing pairs count as gaps.
    {
      operationId: 'old',
      method: 'GET',
      path: '/',
      documented: ['200', '400'],
      exercised: ['200'],
      undocumented: ['302'],
    },
  ];

  it('counts ranges and default as exercised by what they cover, the rest by reason', () => {
    expect(isExercised('4XX', ['418'], ['4XX'])).toBe(true);
    expect(isExercised('default', ['418'], ['200', 'default'])).toBe(true);
    expect(isExercised('default', ['200'], ['200', 'default'])).toBe(false);
    expect(coverageTotals(rows, ['resetThings'])).toEqual({
      documented: 7,
      exercised: 3,
      notProvokable: { 'server-fault': 1, 'catch-all': 1 },
      notReached: 2,
      undocumented: 1,
      destructiveLeftOut: ['resetThings'],
    });
    expect(notReachedPairs(rows)).toEqual(['getThing 404', 'old 400']);
  });
});
