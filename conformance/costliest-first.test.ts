import { describe, expect, it } from 'vitest';
import type { SpecOperation } from '../spec/operations.js';
import { costliestFirst } from './costliest-first.js';

const op = (operationId: string, method: SpecOperation['method']) =>
  ({ operationId, method }) as SpecOperation;

describe('costliestFirst', () => {
  it('takes up the login, then the writes, then the reads, each in the spec order', () => {
    const ops = [
      op('listUsers', 'get'),
      op('createUser', 'post'),
      op('getUser', 'get'),
      op('login', 'post'),
      op('updateUser', 'patch'),
      op('deleteUser', 'delete'),
      op('options', 'options'),
    ];
    expect(costliestFirst(ops, 'login').map((o) => o.operationId)).toEqual([
      'login',
      'createUser',
      'updateUser',
      'deleteUser',
      'listUsers',
      'getUser',
      'options',
    ]);
  });

  it('keeps every operation once, and the input as it was, without a login', () => {
    const ops = [op('a', 'get'), op('b', 'put'), op('c', 'get')];
    expect(costliestFirst(ops).map((o) => o.operationId)).toEqual(['b', 'a', 'c']);
    expect(ops.map((o) => o.operationId)).toEqual(['a', 'b', 'c']);
  });
});
