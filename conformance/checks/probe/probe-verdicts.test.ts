import { describe, expect, it } from 'vitest';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import { documentsInvalidToken, unauthorizedProblem } from './auth.js';
import { expectedAllow } from './methods.js';
import { expectedStatus } from './negative-data.js';
import { rejectsAsInvalid } from './positive-data.js';

function exchange(status: number, headers: Record<string, string> = {}, body = ''): Exchange {
  return {
    request: { method: 'GET', url: 'http://h/api/v1/x', headers: {} },
    response: { status, headers, body, durationMs: 1 },
    headers: new Headers(headers),
  };
}

const op = (responses: Record<string, object>, content: string[] = ['application/json']) =>
  ({
    operationId: 'op',
    method: 'post',
    path: '/x',
    responses,
    requestBody: { content: Object.fromEntries(content.map((c) => [c, {}])) },
  }) as unknown as SpecOperation;

describe('verdicts', () => {
  it.each([
    [400, '', true],
    [413, '', true],
    [415, '', true],
    [409, '', false],
    [404, '', false],
    [422, '{"type":"urn:apikit:problem:unknown-reference","title":"Unknown reference"}', false],
    [422, '{"type":"about:blank","errors":[{"pointer":"#/a"}]}', true],
    [422, '{"type":"urn:x:validation-failed"}', true],
    [422, '{"detail":[{"loc":["body","a"]}]}', true],
  ])('rejectsAsInvalid(%i %s) is %s', (status, body, rejected) => {
    expect(rejectsAsInvalid(exchange(status, {}, body))).toBe(rejected);
  });

  it('expects Allow with HEAD where GET is, and OPTIONS', () => {
    expect([...expectedAllow(['GET', 'POST'])].sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
    expect([...expectedAllow(['PUT', 'OPTIONS'])].sort()).toEqual(['OPTIONS', 'PUT']);
  });

  it('expects 415 for a foreign media type, 413 for a large body, else 400', () => {
    const patch = op({ '400': {}, '413': {}, '415': {} }, [
      'application/json',
      'application/merge-patch+json',
    ]);
    const testCase = (call: object) => ({ description: 'd', pointer: '#', call });
    expect(expectedStatus(patch, testCase({ body: {}, contentType: 'text/plain' }))).toBe(415);
    expect(
      expectedStatus(
        patch,
        testCase({ body: {}, contentType: 'application/json; charset=latin1' }),
      ),
    ).toBe(415);
    expect(
      expectedStatus(patch, testCase({ body: {}, contentType: 'application/merge-patch+json' })),
    ).toBe(400);
    expect(expectedStatus(patch, testCase({ rawBody: 'x'.repeat(200_000) }))).toBe(413);
    expect(expectedStatus(patch, testCase({ body: { a: 1 } }))).toBe(400);
    expect(expectedStatus(op({}), testCase({ body: {} }))).toBeUndefined();
  });

  it('reads invalid_token from the documented 401', () => {
    const documented = op({
      '401': {
        description: 'x',
        headers: { 'WWW-Authenticate': { example: 'Bearer error="invalid_token"' } },
      },
    });
    expect(documentsInvalidToken(documented)).toBe(true);
    expect(documentsInvalidToken(op({ '401': { description: 'Unauthorized' } }))).toBe(false);
  });

  it('judges a 401 by its Bearer challenge', () => {
    const challenge = (value: string) => exchange(401, { 'www-authenticate': value });
    expect(unauthorizedProblem(challenge('Bearer realm="api"'), false, true)).toBeUndefined();
    expect(unauthorizedProblem(challenge('Bearer realm="api"'), true, true)).toMatch(
      /invalid_token/,
    );
    expect(unauthorizedProblem(challenge('Bearer realm="api"'), true, false)).toBeUndefined();
    expect(unauthorizedProblem(challenge('Basic realm="api"'), false, true)).toMatch(/Basic/);
    expect(unauthorizedProblem(exchange(401), false, false)).toMatch(/none/);
    expect(unauthorizedProblem(exchange(200), false, false)).toMatch(/^200/);
  });
});
