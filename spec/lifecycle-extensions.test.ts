import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { cascadeOf } from './apikit-extensions.js';
import { loadSpec } from './load-spec.js';
import { listOperations } from './operations.js';

const withCascade = (value: unknown) => ({
  operation: { responses: {}, 'x-apikit-cascade': value } as OpenAPIV3.OperationObject,
});

describe('x-apikit-cascade', () => {
  it('reads what deleting a user takes with it', async () => {
    const ops = listOperations(await loadSpec());
    const declared = ops.filter((op) => cascadeOf(op)).map((op) => op.operationId);
    expect(declared).toEqual(['deleteUser']);
    expect(cascadeOf(ops.find((op) => op.operationId === 'deleteUser')!)).toEqual({
      operations: ['createUserOrder'],
    });
  });

  it('counts a value of the wrong type as absent', () => {
    expect(cascadeOf(withCascade(['createUserOrder']))).toBeUndefined();
    expect(cascadeOf(withCascade({ operations: 'createUserOrder' }))).toBeUndefined();
    expect(cascadeOf(withCascade({ operations: [1, 'x'] }))).toEqual({ operations: ['x'] });
  });
});
