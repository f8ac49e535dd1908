import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { cascadeOf, initialItems } from './apikit-extensions.js';
import { loadSpec } from './load-spec.js';
import { listOperations } from './operations.js';

const withCascade = (value: unknown) => ({
  operation: { responses: {}, 'x-apikit-cascade': value } as OpenAPIV3.OperationObject,
});

describe('x-apikit-cascade', () => {
  it('reads what deleting a user takes with it', async () => {
    const ops = listOperations(await loadSpec());
    const declared = ops.filter((op) => cascadeOf(op)).map((op) => op.operationId);
    expect(declared).toEqual(['deleteUser', 'deleteUserOrder']);
    expect(cascadeOf(ops.find((op) => op.operationId === 'deleteUser')!)).toEqual({
      operations: ['createUserOrder'],
      items: false,
    });
    expect(cascadeOf(ops.find((op) => op.operationId === 'deleteUserOrder')!)).toEqual({
      operations: [],
      items: true,
    });
  });

  it('counts a value of the wrong type as absent', () => {
    expect(cascadeOf(withCascade(['createUserOrder']))).toBeUndefined();
    expect(cascadeOf(withCascade({ operations: 'createUserOrder' }))).toBeUndefined();
    expect(cascadeOf(withCascade({ operations: [1, 'x'] }))).toEqual({
      operations: ['x'],
      items: false,
    });
    expect(cascadeOf(withCascade({ items: 'yes' }))).toBeUndefined();
  });
});

describe('x-apikit-initial-items', () => {
  it('reads what a new user starts with, and drops entries of the wrong type', async () => {
    const ops = listOperations(await loadSpec());
    const createUser = ops.find((op) => op.operationId === 'createUser')!;
    expect(initialItems(createUser)).toEqual([
      { link: 'ListUserRoles', contains: [{ name: 'USER' }] },
    ]);
    const odd = {
      operation: {
        responses: {},
        'x-apikit-initial-items': [{ link: 'L' }, { link: 'M', contains: [{ a: 1 }, 'x'] }, 3],
      } as OpenAPIV3.OperationObject,
    };
    expect(initialItems(odd)).toEqual([{ link: 'M', contains: [{ a: 1 }] }]);
  });
});
