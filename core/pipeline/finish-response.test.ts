import { describe, expect, it } from 'vitest';
import { createExchange } from './exchange.js';
import { finishResponse } from './finish-response.js';

const exchange = (method: string, path: string, headers: Record<string, string> = {}) =>
  createExchange({
    method,
    path,
    query: '',
    headers: new Headers({ 'X-Request-Id': 'req-1', ...headers }),
    body: null,
  });

describe('finishResponse', () => {
  it('adds Vary, the request id and Content-Length to an API answer', () => {
    const res = finishResponse(
      exchange('GET', '/api/v1/users'),
      { status: 200, headers: {}, body: 'é' },
      '*',
    );
    expect(res.headers.get('vary')).toBe('Authorization, Accept');
    expect(res.headers.get('x-request-id')).toBe('req-1');
    expect(res.headers.get('content-length')).toBe('2');
    expect(res.body).toBe('é');
  });

  it('challenges a 401 saying whether a token was presented', () => {
    const x = exchange('GET', '/api/v1/users');
    x.tokenPresented = true;
    const res = finishResponse(x, { status: 401, headers: {}, body: '{}' }, '*');
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api", error="invalid_token"');
  });

  it("joins the CORS Vary to the answer's own and reports the operation", () => {
    const x = exchange('GET', '/api/v1/users', { Origin: 'https://a.example' });
    x.operationId = 'listUsers';
    const res = finishResponse(x, { status: 200, headers: {}, body: '[]' }, ['https://a.example']);
    expect(res.headers.get('vary')).toBe('Authorization, Accept, Origin');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://a.example');
    expect(res.operationId).toBe('listUsers');
  });

  it('sends no body for HEAD, and no Vary or CORS of its own outside the base or on OPTIONS', () => {
    const head = finishResponse(
      exchange('HEAD', '/healthz'),
      { status: 200, headers: {}, body: '{}' },
      '*',
    );
    expect(head.body).toBeNull();
    expect(head.headers.get('content-length')).toBe('2');
    expect(head.headers.has('vary')).toBe(false);
    const options = finishResponse(
      exchange('OPTIONS', '/api/v1/users', { Origin: 'https://a.example' }),
      { status: 204, headers: { Allow: 'GET' }, body: null },
      '*',
    );
    expect(options.headers.has('access-control-allow-origin')).toBe(false);
    expect(options.headers.has('vary')).toBe(false);
    expect('operationId' in options).toBe(false);
  });
});
