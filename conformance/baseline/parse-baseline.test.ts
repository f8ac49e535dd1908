import { describe, expect, it } from 'vitest';
import { renderBaseline, type BaselineEntry } from './baseline.js';
import { BaselineError, parseBaseline } from './parse-baseline.js';

const entry = (check: string, operationId = 'getUser', rule = '404'): BaselineEntry => ({
  check,
  operationId,
  rule,
});

describe('renderBaseline and parseBaseline', () => {
  it('round-trips, sorted by check, operation and rule, duplicates dropped', () => {
    const text = renderBaseline({
      entries: [
        entry('use_after_free'),
        entry('delete_twice', 'deleteUser'),
        entry('use_after_free'),
      ],
    });
    expect(text).toBe(
      [
        '{',
        '  "apikitConformBaseline": 1,',
        '  "entries": [',
        '    {',
        '      "check": "delete_twice",',
        '      "operationId": "deleteUser",',
        '      "rule": "404"',
        '    },',
        '    {',
        '      "check": "use_after_free",',
        '      "operationId": "getUser",',
        '      "rule": "404"',
        '    }',
        '  ]',
        '}',
        '',
      ].join('\n'),
    );
    expect(parseBaseline(text).entries).toEqual([
      entry('delete_twice', 'deleteUser'),
      entry('use_after_free'),
    ]);
  });

  it('writes the same bytes whatever order the entries came in', () => {
    const entries = [
      entry('b', 'x'),
      entry('a', 'y'),
      entry('a', 'x', '409'),
      entry('a', 'x', '404'),
    ];
    expect(renderBaseline({ entries })).toBe(renderBaseline({ entries: [...entries].reverse() }));
  });

  it('reads an empty baseline', () => {
    expect(parseBaseline('{"apikitConformBaseline": 1, "entries": []}')).toEqual({ entries: [] });
  });

  it.each([
    ['an empty file', '', /^the file is empty$/],
    ['no JSON', 'check: use_after_free', /^not JSON \(/],
    ['a list', '[]', /^not an apikit conform baseline \(the file holds a list\)$/],
    ['null', 'null', /\(the file holds null\)$/],
    [
      'an ESLint suppressions file',
      JSON.stringify({ 'src/a.js': { 'no-unused-vars': { count: 2 } } }),
      /^not an apikit conform baseline \(it looks like an ESLint suppressions file\)$/,
    ],
    [
      'an apikit conform JSON report',
      JSON.stringify({ summary: {}, results: [], coverage: [] }),
      /it is an apikit conform JSON report: write the baseline with --update-baseline/,
    ],
    [
      'other JSON',
      '{"entries": []}',
      /^not an apikit conform baseline \(no "apikitConformBaseline" field\)$/,
    ],
    [
      'a newer version',
      '{"apikitConformBaseline": 2, "entries": []}',
      /version 2 is newer than this apikit reads \(1\): upgrade apikit/,
    ],
    [
      'a wrong version',
      '{"apikitConformBaseline": "1", "entries": []}',
      /"apikitConformBaseline" is "1", expected 1/,
    ],
    [
      'entries not a list',
      '{"apikitConformBaseline": 1, "entries": {}}',
      /"entries" is not a list/,
    ],
    [
      'an entry without a rule',
      '{"apikitConformBaseline": 1, "entries": [{"check": "a", "operationId": "b", "rule": "c"}, {"check": "a", "operationId": "b"}]}',
      /^entry 2 is not \{"check", "operationId", "rule"\} \(three strings\)$/,
    ],
  ])('refuses %s with one line', (_what, text, message) => {
    const read = () => parseBaseline(text);
    expect(read).toThrow(BaselineError);
    expect(read).toThrow(message);
    try {
      read();
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });
});
