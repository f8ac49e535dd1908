import { describe, expect, it } from 'vitest';
import { createExchange } from '../exchange.js';
import { checkAccept } from './check-accept.js';

const accepting = (accept?: string) =>
  createExchange({
    method: 'GET',
    path: '/api/v1/users',
    query: '',
    headers: new Headers(accept === undefined ? {} : { Accept: accept }),
    body: null,
  });

describe('checkAccept', () => {
  it.each([undefined, '*/*', 'application/json', 'application/problem+json'])(
    'passes Accept %s',
    (accept) => expect(checkAccept(accepting(accept))).toBeUndefined(),
  );

  it('is 406 when Accept admits neither JSON nor problem+json', () => {
    expect(() => checkAccept(accepting('text/html'))).toThrow(
      expect.objectContaining({ status: 406, slug: 'not-acceptable' }),
    );
  });
});
