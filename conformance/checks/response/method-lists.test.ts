import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import { acceptPatchMatches, mediaTypeListProblem, mediaTypes } from './accept-patch-matches.js';
import { allowMatchesPath } from './allow-matches-path.js';

const PATH = '/shelves/{shelf}';
const acceptPatch: Record<string, OpenAPIV3.HeaderObject> = { 'Accept-Patch': {} };

function op(method: string, responses: SpecOperation['responses'] = {}): SpecOperation {
  const content: Record<string, OpenAPIV3.MediaTypeObject> = {
    'application/json': {},
    'application/merge-patch+json': {},
  };
  return {
    operationId: `${method}Shelf`,
    method,
    path: PATH,
    responses,
    ...(method === 'patch' ? { requestBody: { content } } : {}),
  } as SpecOperation;
}

const get = op('get');
const patch = op('patch', { '415': { description: '', headers: acceptPatch } });
const options = op('options', { '204': { description: '', headers: acceptPatch } });
const all = [get, patch, options];

function ctx(operations = all, cors?: object): RunContext {
  return {
    allOperations: all,
    operations,
    scope: {
      missingReason: (o: SpecOperation) => (operations.includes(o) ? undefined : 'missing'),
    },
    spec: { 'x-apikit-service': cors ? { cors } : {} },
  } as unknown as RunContext;
}

function exchange(
  method: string,
  status: number,
  headers: Record<string, string>,
  request: Record<string, string> = {},
): Exchange {
  return {
    request: { method, url: 'http://t/api/v1/shelves/7', headers: request },
    response: { status, headers, body: '', durationMs: 1 },
    headers: new Headers(headers),
  };
}

const allow = (value: string, status = 204, method = 'OPTIONS') =>
  allowMatchesPath.check(exchange(method, status, { allow: value }), options, ctx());

describe('allow_matches_path', () => {
  it('passes the declared methods, HEAD with GET and OPTIONS, in any order and case', () => {
    expect(allow('GET, HEAD, PATCH, OPTIONS')).toEqual([]);
    expect(allow('options,patch ,head,get')).toEqual([]);
  });

  it('fails an OPTIONS answer that leaves a method out or names one not declared', () => {
    expect(allow('GET, HEAD, OPTIONS')[0]?.message).toMatch(/missing PATCH/);
    expect(allow('GET, HEAD, PATCH, DELETE, OPTIONS')[0]?.message).toMatch(/not declared DELETE/);
  });

  it('judges a 405 too, where OPTIONS may be left out only if the spec declares none', () => {
    expect(allow('GET, HEAD, PATCH', 405, 'PUT')[0]?.message).toMatch(/missing OPTIONS/);
    const noOptions = ctx([get, patch]);
    const answer = exchange('PUT', 405, { allow: 'GET, HEAD, PATCH' });
    expect(
      allowMatchesPath.check(answer, get, { ...noOptions, allOperations: [get, patch] }),
    ).toEqual([]);
  });

  it('lets methods of operations out of scope be left out, never added', () => {
    const scoped = ctx([options, get]);
    const answer = (value: string) => exchange('OPTIONS', 204, { allow: value });
    expect(allowMatchesPath.check(answer('GET, HEAD, OPTIONS'), options, scoped)).toEqual([]);
    expect(allowMatchesPath.check(answer('GET, HEAD, PUT, OPTIONS'), options, scoped)).toHaveLength(
      1,
    );
  });

  it('leaves an absent Allow, other answers and requests of another path alone', () => {
    expect(allowMatchesPath.check(exchange('OPTIONS', 204, {}), options, ctx())).toEqual([]);
    expect(allowMatchesPath.check(exchange('GET', 200, { allow: 'GET' }), get, ctx())).toEqual([]);
    const elsewhere = exchange('OPTIONS', 204, { allow: 'GET' });
    elsewhere.request.url = 'http://t/api/v1/other';
    expect(allowMatchesPath.check(elsewhere, options, ctx())).toEqual([]);
  });

  it("judges a preflight's Access-Control-Allow-Methods where the contract says what it lists", () => {
    const preflight = (value: string) =>
      exchange(
        'OPTIONS',
        204,
        { allow: 'GET, HEAD, PATCH, OPTIONS', 'access-control-allow-methods': value },
        { 'Access-Control-Request-Method': 'GET', Origin: 'https://o.example' },
      );
    const asAllow = ctx(all, { allowHeaders: [], exposeHeaders: [], allowMethods: 'Allow' });
    expect(
      allowMatchesPath.check(preflight('GET, HEAD, PATCH, OPTIONS'), options, asAllow),
    ).toEqual([]);
    const [failure] = allowMatchesPath.check(preflight('GET'), options, asAllow);
    expect(failure?.message).toMatch(
      /^Access-Control-Allow-Methods .*missing HEAD, PATCH, OPTIONS/,
    );
    const fixed = ctx(all, { allowHeaders: [], exposeHeaders: [], allowMethods: ['get', 'post'] });
    expect(allowMatchesPath.check(preflight('POST, GET'), options, fixed)).toEqual([]);
    expect(allowMatchesPath.check(preflight('GET'), options, ctx())).toEqual([]);
  });
});

describe('accept_patch_matches', () => {
  const judge = (value: string, method = 'OPTIONS', status = 204, on = options) =>
    acceptPatchMatches.check(exchange(method, status, { 'accept-patch': value }), on, ctx());

  it("passes exactly the PATCH's media types, in any order and case, a charset aside", () => {
    expect(judge('application/json, application/merge-patch+json')).toEqual([]);
    expect(judge('Application/Merge-Patch+JSON;charset=utf-8,application/json')).toEqual([]);
    expect(judge('application/json', 'PATCH', 415, patch)).toHaveLength(1);
  });

  it('fails a type left out or one PATCH does not take, on OPTIONS and on a 415', () => {
    expect(judge('application/json')[0]?.message).toMatch(/missing application\/merge-patch\+json/);
    const [failure] = judge('application/json, application/json-patch+json', 'PATCH', 415, patch);
    expect(failure?.message).toMatch(/not taken application\/json-patch\+json/);
  });

  it('judges only where the spec documents the header and the PATCH is not found missing', () => {
    expect(judge('text/plain', 'PATCH', 400, patch)).toEqual([]);
    expect(judge('text/plain', 'OPTIONS', 204, op('options'))).toEqual([]);
    const noPatch = acceptPatchMatches.check(
      exchange('OPTIONS', 204, { 'accept-patch': 'text/plain' }),
      options,
      ctx([get, options]),
    );
    expect(noPatch).toEqual([]);
  });

  it('compares a parameter only where both sides give it', () => {
    const declared = mediaTypes('application/json; charset=utf-8');
    expect(mediaTypeListProblem(mediaTypes('application/json'), declared)).toBeUndefined();
    expect(mediaTypeListProblem(mediaTypes('application/json;charset="UTF-8"'), declared)).toBe(
      undefined,
    );
    expect(mediaTypeListProblem(mediaTypes('application/json;charset=latin1'), declared)).toMatch(
      /missing application\/json; not taken application\/json/,
    );
  });
});
