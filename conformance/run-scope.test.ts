import { describe, expect, it } from 'vitest';
import type { SpecOperation } from '../spec/operations.js';
import { OperationUnavailableError, OUT_OF_SCOPE, RunScope } from './run-scope.js';

function op(operationId: string, method: SpecOperation['method'], path: string) {
  return { operationId, method, path, tags: [] } as unknown as SpecOperation;
}

const listThings = op('listThings', 'get', '/things');
const getThing = op('getThing', 'get', '/things/{id}');
const getMine = op('getMine', 'get', '/things/mine');
const deleteThing = op('deleteThing', 'delete', '/things/{id}');
const reset = op('reset', 'post', '/reset');
const all = [listThings, getThing, getMine, deleteThing, reset];

describe('RunScope', () => {
  it('judges the selection, less what the target lacks', () => {
    const scope = new RunScope(all, [listThings, getThing, deleteThing], [reset]);
    scope.markMissing(deleteThing, 'answered 404 like an unknown route');
    expect(scope.operations).toEqual([listThings, getThing]);
    expect(scope.includes(deleteThing)).toBe(true);
    expect(scope.unavailable(getThing)).toBeUndefined();
    expect(scope.unavailable(getMine)).toBe(OUT_OF_SCOPE);
    expect(scope.unavailable(deleteThing)).toMatch(/not implemented/);
    expect(scope.unavailable(reset)).toMatch(/--allow-destructive/);
    expect(scope.reports(reset)).toBe(true);
    expect(scope.reports(getMine)).toBe(false);
    expect(scope.missingOperations()).toEqual([
      { op: deleteThing, reason: 'answered 404 like an unknown route' },
    ]);
  });

  it('does not mark an operation outside the selection missing', () => {
    const scope = new RunScope(all, [listThings]);
    scope.markMissing(getThing, 'no route');
    expect(scope.missingOperations()).toEqual([]);
  });

  it('tells the operation a request addresses, the most literal template first, HEAD as GET', () => {
    const scope = new RunScope(all, all);
    expect(scope.operationOf({ method: 'GET', path: '/things/42?expand=x' })).toBe(getThing);
    expect(scope.operationOf({ method: 'GET', path: '/things/mine' })).toBe(getMine);
    expect(scope.operationOf({ method: 'HEAD', path: '/things' })).toBe(listThings);
    expect(scope.operationOf({ method: 'PUT', path: '/things/42' })).toBeUndefined();
    expect(scope.operationOf({ method: 'GET', path: '/things/' })).toBeUndefined();
  });

  it('refuses a request to an operation out of scope, and lets others through', () => {
    const scope = new RunScope(all, [listThings]);
    expect(() => scope.guard({ method: 'GET', path: '/things/7' })).toThrow(
      OperationUnavailableError,
    );
    expect(() => scope.guard({ method: 'GET', path: '/things/7' })).toThrow(
      /needs getThing \(GET \/things\/\{id\}\), which is out of scope/,
    );
    expect(() => scope.guard({ method: 'GET', path: '/things' })).not.toThrow();
    expect(() => scope.guard({ method: 'PATCH', path: '/things/7' })).not.toThrow();
    expect(() => scope.guard({ method: 'GET', path: '/no-such-route' })).not.toThrow();
  });
});
