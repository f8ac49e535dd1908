import { describe, expect, it } from 'vitest';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import { answerShape, answersNoRoute, sameShape } from './no-route.js';

function exchange(method: string, path: string, status: number, type: string, body: string) {
  return {
    request: { method, url: `http://127.0.0.1:9/api/v1${path}`, headers: {} },
    response: { status, headers: { 'content-type': type }, body, durationMs: 1 },
    headers: new Headers({ 'content-type': type }),
  } as Exchange;
}

const expressPage = (method: string, path: string) =>
  `<!DOCTYPE html><html><body><pre>Cannot ${method} /api/v1${path}</pre></body></html>`;
const op = (responses: string[]) =>
  ({
    operationId: 'getThing',
    method: 'get',
    path: '/things/{id}',
    responses: Object.fromEntries(responses.map((s) => [s, { description: s }])),
  }) as unknown as SpecOperation;

describe('answerShape', () => {
  it("makes one handler's answers to two paths equal: the path, method, ids and dates masked", () => {
    const unknown = answerShape(
      exchange(
        'GET',
        '/apikit-no-such-route',
        404,
        'text/html; charset=utf-8',
        expressPage('GET', '/apikit-no-such-route'),
      ),
      '/api/v1',
    );
    const route = answerShape(
      exchange('GET', '/things/42', 404, 'text/html', expressPage('GET', '/things/42')),
      '/api/v1',
    );
    expect(sameShape(unknown, route)).toBe(true);
    const spring = (path: string, at: string) =>
      answerShape(
        exchange(
          'GET',
          path,
          404,
          'application/json',
          JSON.stringify({
            timestamp: at,
            status: 404,
            error: 'Not Found',
            path: `/api/v1${path}`,
          }),
        ),
        '/api/v1',
      );
    expect(
      sameShape(
        spring('/x', '2026-11-28T10:00:00.123Z'),
        spring('/things/7', '2026-11-28T10:00:01.456Z'),
      ),
    ).toBe(true);
  });

  it('keeps apart what a route says of a resource and what a target says of an unknown path', () => {
    const unknown = answerShape(
      exchange(
        'GET',
        '/apikit-no-such-route',
        404,
        'application/problem+json',
        '{"title":"Not Found","detail":"No resource at /api/v1/apikit-no-such-route"}',
      ),
      '/api/v1',
    );
    const absent = answerShape(
      exchange(
        'GET',
        '/things/42',
        404,
        'application/problem+json',
        '{"title":"Not Found","detail":"Thing 42 does not exist."}',
      ),
      '/api/v1',
    );
    expect(sameShape(unknown, absent)).toBe(false);
  });
});

describe('answersNoRoute', () => {
  const unknown = answerShape(
    exchange('GET', '/nope', 404, 'text/html', expressPage('GET', '/nope')),
    '/api/v1',
  );
  const shape = (status: number, type = 'text/html', body = 'x') =>
    answerShape(exchange('GET', '/things/1', status, type, body), '/api/v1');

  it("is the unknown path's answer, or a 405/501 the operation does not document", () => {
    expect(
      answersNoRoute(
        op(['200', '404']),
        answerShape(
          exchange('GET', '/things/1', 404, 'text/html', expressPage('GET', '/things/1')),
          '/api/v1',
        ),
        unknown,
      ),
    ).toBe(true);
    expect(answersNoRoute(op(['200']), shape(501, 'application/json'), unknown)).toBe(true);
    expect(answersNoRoute(op(['200']), shape(405), unknown)).toBe(true);
  });

  it('is not a documented 405, another 404, or any other status', () => {
    expect(answersNoRoute(op(['200', '405']), shape(405), unknown)).toBe(false);
    expect(
      answersNoRoute(op(['200', '404']), shape(404, 'application/problem+json'), unknown),
    ).toBe(false);
    expect(answersNoRoute(op(['200']), shape(400), unknown)).toBe(false);
    expect(answersNoRoute(op(['200']), shape(200), unknown)).toBe(false);
  });
});
