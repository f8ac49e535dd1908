import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../body-parser.js';
import { createExchange } from '../exchange.js';
import { checkBodySize } from './check-body-size.js';

const posting = (bytes: number | null, bodyTooLarge = false) =>
  createExchange({
    method: 'POST',
    path: '/api/v1/users',
    query: '',
    headers: new Headers(),
    body: bytes === null ? null : new Uint8Array(bytes),
    ...(bodyTooLarge ? { bodyTooLarge } : {}),
  });

describe('checkBodySize', () => {
  it('passes no body and a body at the limit', () => {
    expect(checkBodySize(posting(null))).toBeUndefined();
    expect(checkBodySize(posting(MAX_BODY_BYTES))).toBeUndefined();
  });

  it('is 413 one byte over the limit, or when the adapter stopped reading', () => {
    const tooLarge = expect.objectContaining({ status: 413, slug: 'payload-too-large' });
    expect(() => checkBodySize(posting(MAX_BODY_BYTES + 1))).toThrow(tooLarge);
    expect(() => checkBodySize(posting(10, true))).toThrow(tooLarge);
  });
});
