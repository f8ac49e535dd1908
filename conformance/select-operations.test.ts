import { describe, expect, it } from 'vitest';
import type { SpecOperation } from '../spec/operations.js';
import { operationPattern } from './operation-pattern.js';
import { selectOperations } from './select-operations.js';

function op(operationId: string, method: SpecOperation['method'], path: string, tag = 'things') {
  return { operationId, method, path, tags: [tag] } as SpecOperation;
}

const listThings = op('listThings', 'get', '/things');
const createThing = op('createThing', 'post', '/things');
const optionsThings = op('optionsThings', 'options', '/things', 'http');
const getThing = op('getThing', 'get', '/things/{id}');
const deleteThing = op('deleteThing', 'delete', '/things/{id}');
const optionsThing = op('optionsThing', 'options', '/things/{id}', 'http');
const listParts = op('listParts', 'get', '/things/{thingId}/parts', 'parts');
const optionsParts = op('optionsParts', 'options', '/things/{thingId}/parts', 'http');
const login = op('login', 'post', '/auth/login', 'auth');
const all = [
  listThings,
  createThing,
  optionsThings,
  getThing,
  deleteThing,
  optionsThing,
  listParts,
  optionsParts,
  login,
];
const ids = (ops: SpecOperation[]) => ops.map((o) => o.operationId);

describe('operationPattern', () => {
  it.each([
    ['/things', ['listThings', 'createThing', 'optionsThings']],
    ['/things/*', ['getThing', 'deleteThing', 'optionsThing']],
    ['/things/**', ids(all.filter((o) => o.path.startsWith('/things')))],
    ['/things/{x}/parts', ['listParts', 'optionsParts']],
    ['/th*', ['listThings', 'createThing', 'optionsThings']],
    ['GET /things/**', ['listThings', 'getThing', 'listParts']],
    ['delete /things/*', ['deleteThing']],
    ['/**', ids(all)],
    ['login', ['login']],
    ['parts', ['listParts']],
  ])('%s matches %j', (entry, expected) => {
    expect(ids(all.filter(operationPattern(entry)))).toEqual(expected);
  });
});

describe('selectOperations', () => {
  it('takes every operation without include or exclude', () => {
    expect(selectOperations(all)).toEqual(all);
  });

  it('brings the OPTIONS of a path in with one of its operations, and only then', () => {
    expect(ids(selectOperations(all, ['getThing', 'login']))).toEqual([
      'getThing',
      'optionsThing',
      'login',
    ]);
    expect(ids(selectOperations(all, ['things']))).not.toContain('optionsParts');
  });

  it("leaves a path's OPTIONS out with the path, or when excluded by name", () => {
    expect(ids(selectOperations(all, [], ['/things/*']))).not.toContain('optionsThing');
    expect(ids(selectOperations(all, [], ['parts']))).not.toContain('optionsParts');
    expect(ids(selectOperations(all, ['getThing'], ['optionsThing']))).toEqual(['getThing']);
  });

  it('takes an OPTIONS named by itself', () => {
    expect(ids(selectOperations(all, ['optionsParts']))).toEqual(['optionsParts']);
  });

  it('narrows by path glob, then excludes by operationId', () => {
    expect(ids(selectOperations(all, ['/things/**'], ['deleteThing', 'parts']))).toEqual([
      'listThings',
      'createThing',
      'optionsThings',
      'getThing',
      'optionsThing',
    ]);
  });

  it('refuses an entry that names nothing, saying which', () => {
    expect(() => selectOperations(all, ['getThng'])).toThrow(/getThng/);
    expect(() => selectOperations(all, [], ['/nothing/*'])).toThrow(
      /\/nothing\/\* \(a path glob\)/,
    );
  });
});
