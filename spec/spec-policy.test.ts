import { acceptsCredentials } from './operation-security.js';
import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { loadSpec } from './load-spec.js';
import { listOperations, type SpecOperation } from './operations.js';

/**
 * The contract page's rules that hold for every operation, written as small named checks over
 * the spec: what each operation must document so that the server, the mocks and the runner
 * can all rely on it.
 */
type Policy = (op: SpecOperation) => string[];

const statuses = (op: SpecOperation) => Object.keys(op.responses);
const needs = (op: SpecOperation, ...codes: string[]) =>
  codes.filter((c) => !statuses(op).includes(c)).map((c) => `documents no ${c}`);
const header = (r: OpenAPIV3.ResponseObject, name: string) =>
  Object.keys(r.headers ?? {}).some((h) => h.toLowerCase() === name.toLowerCase());

const policies: Record<string, Policy> = {
  'has an operationId, one tag and a summary': (op) =>
    [
      !op.operation.operationId && 'no operationId',
      op.tags.length !== 1 && `${op.tags.length} tags`,
      !op.summary && 'no summary',
    ].filter((x): x is string => Boolean(x)),
  'secured operations document 401 with WWW-Authenticate': (op) =>
    !acceptsCredentials(op)
      ? []
      : needs(op, '401').concat(
          op.responses['401'] && !header(op.responses['401'], 'WWW-Authenticate')
            ? ['401 without WWW-Authenticate']
            : [],
        ),
  // OPTIONS is not rate limited: a 429 preflight would reach the application as a CORS failure.
  'every operation documents 429, 500 and 503 (with Retry-After)': (op) =>
    needs(op, ...(op.method === 'options' ? [] : ['429']), '500', '503').concat(
      ['429', '503']
        .filter((c) => op.responses[c] && !header(op.responses[c]!, 'Retry-After'))
        .map((c) => `${c} without Retry-After`),
    ),
  'operations that answer JSON document 406': (op) =>
    op.method === 'options' ? [] : needs(op, '406'),
  'operations with a body document 400, 413 and 415': (op) =>
    op.requestBody ? needs(op, '400', '413', '415') : [],
  // OPTIONS validates nothing: a CORS preflight must succeed for the real request to be seen.
  'operations with path or query parameters document 400': (op) =>
    op.method !== 'options' && op.parameters.some((p) => p.in === 'path' || p.in === 'query')
      ? needs(op, '400')
      : [],
  // A PUT that creates at a client-known path (documents 201) has no "absent" case.
  'operations on a resource by id document 404': (op) =>
    op.parameters.some((p) => p.in === 'path') && !(op.method === 'put' && op.responses['201'])
      ? needs(op, '404')
      : [],
  'GETs document 304': (op) => (op.method === 'get' ? needs(op, '304') : []),
  'every error is problem+json with the Problem shape': (op) =>
    Object.entries(op.responses)
      .filter(([status]) => /^[45]/.test(status))
      .flatMap(([status, r]) => {
        const types = Object.keys(r.content ?? {});
        if (types.join() !== 'application/problem+json')
          return [`${status} is ${types.join() || 'bodiless'}`];
        const schema = r.content!['application/problem+json']!.schema as OpenAPIV3.SchemaObject;
        const props = schema.allOf
          ? schema.allOf.flatMap((s) => Object.keys((s as OpenAPIV3.SchemaObject).properties ?? {}))
          : Object.keys(schema.properties ?? {});
        return ['type', 'title', 'status', 'detail', 'instance', 'requestId']
          .filter((p) => !props.includes(p))
          .map((p) => `${status} problem schema lacks ${p}`);
      }),
  'every response declares X-Request-Id and the RateLimit headers': (op) =>
    Object.entries(op.responses).flatMap(([status, r]) =>
      [
        'X-Request-Id',
        ...(op.method === 'options' && status === '204' ? [] : ['RateLimit', 'RateLimit-Policy']),
      ]
        .filter((h) => !header(r, h))
        .map((h) => `${status} lacks ${h}`),
    ),
  '201 responses declare Location': (op) =>
    op.responses['201'] && !header(op.responses['201'], 'Location') ? ['201 lacks Location'] : [],
  'GET 200 declares ETag, Cache-Control and Vary': (op) =>
    op.method !== 'get' || !op.responses['200']
      ? []
      : ['ETag', 'Cache-Control', 'Vary']
          .filter((h) => !header(op.responses['200']!, h))
          .map((h) => `200 lacks ${h}`),
  'PUT responses carry no validators (RFC 9110 9.3.4)': (op) =>
    op.method !== 'put'
      ? []
      : Object.entries(op.responses)
          .filter(
            ([s, r]) => s.startsWith('2') && (header(r, 'ETag') || header(r, 'Last-Modified')),
          )
          .map(([s]) => `${s} declares a validator`),
  'request bodies are closed (additionalProperties: false)': (op) =>
    Object.entries(op.requestBody?.content ?? {})
      .filter(
        ([, m]) => (m.schema as OpenAPIV3.SchemaObject | undefined)?.additionalProperties !== false,
      )
      .map(([type]) => `${type} body schema is open`),
  'PATCH takes application/merge-patch+json too': (op) =>
    op.method === 'patch' && !op.requestBody?.content['application/merge-patch+json']
      ? ['no application/merge-patch+json body']
      : [],
};

describe('every operation follows the contract policy', async () => {
  const operations = listOperations(await loadSpec());
  it('has operations to check', () => expect(operations.length).toBeGreaterThan(40));
  for (const [name, policy] of Object.entries(policies)) {
    it(name, () => {
      const violations = operations.flatMap((op) =>
        policy(op).map((v) => `${op.operationId}: ${v}`),
      );
      expect(violations).toEqual([]);
    });
  }
  it('operationIds are unique', () => {
    const ids = operations.map((op) => op.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });
});
