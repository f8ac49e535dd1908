import { describe, expect, it } from 'vitest';
import {
  compare,
  countLines,
  isProductFile,
  measureFile,
  measureFunctions,
} from './check-size.mjs';

/** A function whose body has `n` statement lines, so it spans n + 2 lines. */
const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');

describe('check-size: measuring', () => {
  it('counts lines as wc -l does', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a\nb\n')).toBe(2);
    expect(countLines('a\nb')).toBe(2);
  });

  it('finds declarations, arrows, function expressions, methods, constructors and accessors with their spans', () => {
    const source = [
      'export function top(a: number) {', // 1
      '  return a;', // 2
      '}', // 3
      'const arrow = (x: number) =>', // 4
      '  x + 1;', // 5
      'const expr = function () {', // 6
      '  return 1;', // 7
      '};', // 8
      'class Box {', // 9
      '  constructor(private n: number) {}', // 10
      '  get size() {', // 11
      '    return this.n;', // 12
      '  }', // 13
      '  grow(by: number): void {', // 14
      '    this.n += by;', // 15
      '  }', // 16
      '}', // 17
      'const table = { pick: () => 1, run() { return 2; } };', // 18
      'declare function ambient(): void;', // 19: no body, not a function to measure
    ].join('\n');
    expect(measureFunctions(source)).toEqual([
      { name: 'top', start: 1, end: 3, lines: 3 },
      { name: 'arrow', start: 4, end: 5, lines: 2 },
      { name: 'expr', start: 6, end: 8, lines: 3 },
      { name: 'Box.constructor', start: 10, end: 10, lines: 1 },
      { name: 'Box.size', start: 11, end: 13, lines: 3 },
      { name: 'Box.grow', start: 14, end: 16, lines: 3 },
      { name: 'pick', start: 18, end: 18, lines: 1 },
      { name: 'run', start: 18, end: 18, lines: 1 },
    ]);
  });

  it('counts a nested function in its parent too, and names it after the parent', () => {
    const source = `function outer() {\n  const inner = () => {\n${body(3)}\n  };\n  [1].map(() => 2);\n}\n`;
    expect(measureFunctions(source)).toEqual([
      { name: 'outer', start: 1, end: 8, lines: 8 },
      { name: 'outer.inner', start: 2, end: 6, lines: 5 },
      { name: 'outer.<arrow>', start: 7, end: 7, lines: 1 },
    ]);
  });

  it('reports a file over 300 lines and a function over 100, not one at the limit', () => {
    const at = `function fine() {\n${body(98)}\n}\n`; // 100 lines
    const over = `function long() {\n${body(99)}\n}\n`; // 101 lines
    expect(measureFile('bench/a.ts', at)).toEqual({ files: {}, functions: {} });
    expect(measureFile('bench/a.ts', over)).toEqual({
      files: {},
      functions: { 'bench/a.ts#long': 101 },
    });
    const big = `${at}${'// filler\n'.repeat(201)}`; // 301 lines
    expect(measureFile('bench/b.ts', big).files).toEqual({ 'bench/b.ts': 301 });
  });

  it('measures product sources only', () => {
    expect(isProductFile('bench/run-bench.ts')).toBe(true);
    expect(isProductFile('scripts/check-size.mjs')).toBe(true);
    expect(isProductFile('bench/run-bench.test.ts')).toBe(false);
    expect(isProductFile('conformance/test-support/fake.ts')).toBe(false);
    expect(isProductFile('test/integration/suite.ts')).toBe(false);
    expect(isProductFile('spec/openapi-types.ts')).toBe(false);
    expect(isProductFile('mocks/browser/public/mockServiceWorker.js')).toBe(false);
    expect(isProductFile('scripts/check-size.d.mts')).toBe(false);
    expect(isProductFile('docs/notes.ts')).toBe(false);
  });
});

describe('check-size: the ratchet', () => {
  const listed = { files: { 'a.ts': 400, 'gone.ts': 350 }, functions: { 'a.ts#f': 150 } };

  it('passes listed offenders at or under their size and says which entries to tidy', () => {
    const { failures, tidy } = compare(
      { files: { 'a.ts': 380 }, functions: { 'a.ts#f': 150 } },
      listed,
    );
    expect(failures).toEqual([]);
    expect(tidy).toEqual([
      'file a.ts: 380 lines now, lower its entry',
      'file gone.ts: within 300 lines now (or gone), remove its entry',
    ]);
  });

  it('fails a new offender and a listed one that grew', () => {
    const { failures } = compare(
      { files: { 'a.ts': 401, 'new.ts': 301 }, functions: { 'a.ts#f': 150, 'a.ts#g': 101 } },
      listed,
    );
    expect(failures).toEqual([
      'file a.ts: 401 lines, grew from 400 (limit 300)',
      'file new.ts: 301 lines, over 300 and not in the list',
      'function a.ts#g: 101 lines, over 100 and not in the list',
    ]);
  });
});
