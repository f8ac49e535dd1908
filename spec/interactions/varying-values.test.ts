import { describe, expect, it } from 'vitest';
import { VARYING } from './interaction-file.js';
import { maskVaryingRequest, maskVaryingResponse } from './varying-values.js';

describe('values of the moment', () => {
  it('masks the values of per-request headers, keeping the headers', () => {
    const response = maskVaryingResponse(
      {
        status: 200,
        headers: {
          etag: '"x1"',
          'x-request-id': 'r-1',
          'last-modified': 'Thu, 15 Jan 2026 09:30:00 GMT',
          'content-type': 'application/json',
          location: '/api/v1/users/37',
        },
        body: { id: 37, requestId: 'r-1', createdAt: 'now', name: 'Ada' },
      },
      (text) => text === 'r-1' || text === 'now',
    );
    expect(response).toEqual({
      status: 200,
      headers: {
        etag: VARYING,
        'x-request-id': VARYING,
        'last-modified': VARYING,
        'content-type': 'application/json',
        location: '/api/v1/users/37',
      },
      body: { id: 37, requestId: VARYING, createdAt: VARYING, name: 'Ada' },
    });
  });

  it('masks a request’s validators and idempotency key, not its body', () => {
    expect(
      maskVaryingRequest({
        method: 'PUT',
        path: '/api/v1/users/1',
        query: [],
        headers: { 'if-match': '"x1"', 'idempotency-key': 'k', 'content-type': 'application/json' },
        body: { name: 'x' },
      }),
    ).toEqual({
      method: 'PUT',
      path: '/api/v1/users/1',
      query: [],
      headers: {
        'if-match': VARYING,
        'idempotency-key': VARYING,
        'content-type': 'application/json',
      },
      body: { name: 'x' },
    });
  });

  it('keeps `*` in If-Match and If-None-Match: "any" is no value of the moment', () => {
    const masked = maskVaryingRequest({
      method: 'PUT',
      path: '/api/v1/users/1',
      query: [],
      headers: { 'if-none-match': '*', 'if-match': '"x1"' },
    });
    expect(masked.headers).toEqual({ 'if-none-match': '*', 'if-match': VARYING });
  });
});
