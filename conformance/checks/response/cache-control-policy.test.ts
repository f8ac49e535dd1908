import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import { policyBreak } from '../support/cache-directives.js';
import { cacheControlPolicy } from './cache-control-policy.js';
import { headDeclaredHeaders } from './head-declared-headers.js';

const RESOURCE: OpenAPIV3.HeaderObject = {
  required: true,
  schema: { type: 'string', enum: ['private, no-cache'] },
};

/** A context whose description documents `responses` (by status) for every operation. */
function context(
  responses: Record<number, OpenAPIV3.ResponseObject>,
  http: object = { cacheControl: { writes: 'private, no-cache' } },
): RunContext {
  return {
    spec: { 'x-apikit-http': http },
    validator: { documented: (_id: string, status: number) => responses[status] },
  } as unknown as RunContext;
}

function exchange(method: string, status: number, headers: Record<string, string>): Exchange {
  return {
    request: { method, url: 'http://t/things/1', headers: {} },
    response: { status, headers, body: '', durationMs: 1 },
    headers: new Headers(headers),
  };
}

const op = (method: string) =>
  ({ operationId: 'someOp', method, path: '/things/{id}' }) as SpecOperation;

describe('policyBreak', () => {
  it('takes the directives in any order, letter case and quoting', () => {
    expect(policyBreak('No-Cache,private', 'private, no-cache')).toBeUndefined();
    expect(policyBreak('private, max-age="3600"', 'private, max-age=3600')).toBeUndefined();
  });

  it('allows a directive beside the policy that contradicts none of it', () => {
    expect(policyBreak('private, no-cache, must-revalidate', 'private, no-cache')).toBeUndefined();
    expect(policyBreak('no-store, private, max-age=0', 'no-store')).toBeUndefined();
  });

  it('names a directive of the policy that is missing or altered', () => {
    expect(policyBreak('no-cache', 'private, no-cache')).toBe('it lacks private');
    expect(policyBreak('privatex, no-cache', 'private, no-cache')).toBe('it lacks private');
    expect(policyBreak('private, max-age=3601', 'private, max-age=3600')).toBe(
      'it lacks max-age=3600',
    );
  });

  it('names what contradicts the policy: shared or lasting storage where it is forbidden', () => {
    expect(policyBreak('public, max-age=60', 'private, no-cache')).toBe(
      'it lacks private, no-cache; public, max-age=60 contradict it',
    );
    expect(policyBreak('private, no-cache, max-age=60', 'private, no-cache')).toBe(
      'max-age=60 contradicts it',
    );
    expect(policyBreak('no-store, public', 'no-store')).toBe('public contradicts it');
    expect(policyBreak('private, max-age=3600, no-cache', 'private, max-age=3600')).toBe(
      'no-cache contradicts it',
    );
  });

  it('names a directive given twice with other arguments', () => {
    expect(policyBreak('private, max-age=3600, max-age=0', 'private, max-age=3600')).toBe(
      'it gives max-age twice',
    );
  });
});

describe('cache_control_policy', () => {
  const judge = (ex: Exchange, method: string, ctx: RunContext) =>
    cacheControlPolicy.check(ex, op(method), ctx);

  it("judges a write's 2xx by x-apikit-http.cacheControl.writes when its response declares none", () => {
    const ctx = context({ 200: { description: 'patched' } });
    expect(
      judge(exchange('PATCH', 200, { 'cache-control': 'private, no-cache' }), 'patch', ctx),
    ).toEqual([]);
    const [failure] = judge(
      exchange('PATCH', 200, { 'cache-control': 'public, max-age=60' }),
      'patch',
      ctx,
    );
    expect(failure?.message).toMatch(/does not hold its policy: it lacks private, no-cache/);
    expect(failure?.expected).toBe(
      'Cache-Control: private, no-cache (x-apikit-http.cacheControl.writes)',
    );
    expect(judge(exchange('DELETE', 200, {}), 'delete', ctx)[0]?.message).toBe(
      'a 200 answer to DELETE has no Cache-Control',
    );
  });

  it('judges nothing undeclared: a read, a write without the extension, a probe of another method', () => {
    const ctx = context({ 200: { description: 'ok' } });
    const cacheable = { 'cache-control': 'public, max-age=60' };
    expect(judge(exchange('GET', 200, cacheable), 'get', ctx)).toEqual([]);
    expect(
      judge(
        exchange('PATCH', 200, cacheable),
        'patch',
        context({ 200: { description: 'ok' } }, {}),
      ),
    ).toEqual([]);
    expect(judge(exchange('PUT', 200, cacheable), 'patch', ctx)).toEqual([]);
  });

  it('judges a declared Cache-Control by its enum, on HEAD as on GET', () => {
    const ctx = context({
      200: { description: 'ok', headers: { 'Cache-Control': RESOURCE } },
      404: {
        description: 'absent',
        headers: { 'Cache-Control': { schema: { type: 'string', enum: ['no-store'] } } },
      },
    });
    expect(
      judge(exchange('HEAD', 200, { 'cache-control': 'no-cache, private' }), 'get', ctx),
    ).toEqual([]);
    expect(
      judge(exchange('GET', 200, { 'cache-control': 'private, no-cache, public' }), 'get', ctx),
    ).toHaveLength(1);
    expect(judge(exchange('GET', 200, {}), 'get', ctx)).toHaveLength(1);
    // Not required: absent passes, present is judged.
    expect(judge(exchange('GET', 404, {}), 'get', ctx)).toEqual([]);
    expect(
      judge(exchange('GET', 404, { 'cache-control': 'no-store, max-age=60' }), 'get', ctx),
    ).toHaveLength(1);
  });
});

describe('head_declared_headers', () => {
  const ctx = context({
    200: {
      description: 'ok',
      headers: { Vary: { required: true }, ETag: { required: true }, Link: {} },
    },
  });

  it('names each header the GET declares as required that a HEAD answer lacks', () => {
    const [failure] = headDeclaredHeaders.check(
      exchange('HEAD', 200, { etag: '"a"' }),
      op('get'),
      ctx,
    );
    expect(failure?.message).toBe(
      'a HEAD answered 200 without Vary, which GET declares as required',
    );
    expect(
      headDeclaredHeaders.check(
        exchange('HEAD', 200, { etag: '"a"', vary: 'Accept' }),
        op('get'),
        ctx,
      ),
    ).toEqual([]);
  });

  it('leaves GET answers and undocumented statuses to the other checks', () => {
    expect(headDeclaredHeaders.check(exchange('GET', 200, {}), op('get'), ctx)).toEqual([]);
    expect(headDeclaredHeaders.check(exchange('HEAD', 418, {}), op('get'), ctx)).toEqual([]);
  });
});
