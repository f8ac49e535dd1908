import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../spec/load-spec.js';
import { listOperations, type SpecOperation } from '../../spec/operations.js';
import { parsersPerOperation } from './parsers-per-operation.js';

let getUser: SpecOperation;
beforeAll(async () => {
  getUser = listOperations(await loadSpec()).find((op) => op.operationId === 'getUser')!;
});

describe('parsersPerOperation', () => {
  it('compiles an operation once: a promise the first time, the same parsers at once after', async () => {
    const parsersOf = parsersPerOperation();
    const first = parsersOf(getUser);
    expect(first).toBeInstanceOf(Promise);
    const compiled = await first;
    expect(parsersOf(getUser)).toBe(compiled);
    expect(compiled.parameters.parse({ id: '7' }, '', new Headers()).path).toEqual({ id: 7 });
  });
});
