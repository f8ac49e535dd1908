import { describe, expect, it } from 'vitest';
import { ApiProblem } from '../domain/api-problem.js';
import { PROBLEM_TYPES, problemTypeUri, type ProblemSlug } from '../domain/problem-types.js';
import { StoreUnavailableError } from '../domain/store.js';
import { renderProblem, toApiProblem } from './problem-response.js';

const REQUEST_ID = 'req-42';

describe('toApiProblem', () => {
  it('keeps an ApiProblem as it is', () => {
    const problem = new ApiProblem('not-found', 'User 9 does not exist');
    expect(toApiProblem(problem, REQUEST_ID)).toBe(problem);
  });

  it.each([
    { name: 'the default wait', error: new StoreUnavailableError('disk full'), retryAfter: '1' },
    { name: 'a given wait', error: new StoreUnavailableError('read-only', 7), retryAfter: '7' },
  ])(
    'turns a store that cannot write into 503 with Retry-After ($name)',
    ({ error, retryAfter }) => {
      const problem = toApiProblem(error, REQUEST_ID);
      expect(problem.slug).toBe('service-unavailable');
      expect(problem.status).toBe(503);
      expect(problem.headers).toEqual({ 'Retry-After': retryAfter });
      expect(problem.detail).not.toContain(error.message);
    },
  );

  it.each([
    { name: 'an Error', error: new Error('ENOENT: /var/lib/apikit/secret.json') },
    {
      name: 'a TypeError',
      error: new TypeError("Cannot read properties of undefined (reading 'x')"),
    },
    { name: 'a thrown string', error: 'password=hunter2' },
    { name: 'undefined', error: undefined },
    { name: 'an object', error: { stack: 'at /home/app/src/x.ts:1:1' } },
  ])('turns $name into a 500 that names only the request id', ({ error }) => {
    const problem = toApiProblem(error, REQUEST_ID);
    expect(problem.slug).toBe('internal-error');
    expect(problem.status).toBe(500);
    expect(problem.detail).toContain(REQUEST_ID);
    expect(problem.detail).not.toMatch(/ENOENT|secret|Cannot read|hunter2|\/home|at /);
    expect(problem.errors).toBeUndefined();
  });
});

describe('renderProblem', () => {
  const slugs = Object.keys(PROBLEM_TYPES) as ProblemSlug[];

  it.each(slugs)('renders %s as RFC 9457 problem+json, not to be stored', (slug) => {
    const rendered = renderProblem(
      new ApiProblem(slug, 'what happened'),
      '/api/v1/users/9',
      REQUEST_ID,
    );
    const { status, title } = PROBLEM_TYPES[slug];
    expect(rendered.status).toBe(status);
    expect(rendered.headers['Content-Type']).toBe('application/problem+json');
    expect(rendered.headers['Cache-Control']).toBe('no-store');
    const body = JSON.parse(rendered.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      type: problemTypeUri(slug),
      title,
      status,
      detail: 'what happened',
      instance: '/api/v1/users/9',
      requestId: REQUEST_ID,
    });
    expect(new URL(body.type as string).protocol).toBe('urn:');
    if (status === 400) expect(body.errors).toEqual([{ pointer: '#', detail: 'what happened' }]);
    else expect(body).not.toHaveProperty('errors');
  });

  it('keeps the errors of a validation failure, one per violation', () => {
    const errors = [
      { pointer: '#/name', detail: 'is required' },
      { pointer: '#/query/size', detail: 'must be <= 100' },
    ];
    const rendered = renderProblem(
      new ApiProblem('validation-failed', '#/name is required (and 1 more)', { errors }),
      '/api/v1/users',
      REQUEST_ID,
    );
    expect(JSON.parse(rendered.body).errors).toEqual(errors);
  });

  it.each<{ slug: ProblemSlug; headers: Record<string, string> }>([
    { slug: 'method-not-allowed', headers: { Allow: 'GET, HEAD, OPTIONS' } },
    { slug: 'service-unavailable', headers: { 'Retry-After': '5' } },
    {
      slug: 'unsupported-media-type',
      headers: { 'Accept-Patch': 'application/json, application/merge-patch+json' },
    },
  ])('adds the headers the problem implies ($slug)', ({ slug, headers }) => {
    const rendered = renderProblem(new ApiProblem(slug, 'x', { headers }), '/x', REQUEST_ID);
    expect(rendered.headers).toMatchObject({ ...headers, 'Cache-Control': 'no-store' });
  });

  it('has exactly the RFC 9457 members plus requestId (and errors on a 400)', () => {
    const ok = JSON.parse(renderProblem(new ApiProblem('forbidden', 'no'), '/i', 'r').body);
    expect(Object.keys(ok).sort()).toEqual([
      'detail',
      'instance',
      'requestId',
      'status',
      'title',
      'type',
    ]);
    const bad = JSON.parse(renderProblem(new ApiProblem('malformed-json', 'no'), '/i', 'r').body);
    expect(Object.keys(bad).sort()).toEqual([
      'detail',
      'errors',
      'instance',
      'requestId',
      'status',
      'title',
      'type',
    ]);
  });
});
