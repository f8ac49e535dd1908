import { describe, expect, it } from 'vitest';
import { parsePattern } from './parse-pattern.js';
import { UnsupportedPattern } from './pattern-node.js';

const char = (c: string) => ({
  kind: 'set',
  ranges: [[c.codePointAt(0), c.codePointAt(0)]],
  negated: false,
});

describe('parsePattern', () => {
  it('builds anchors, alternation, classes and quantifiers into a tree', () => {
    expect(parsePattern('^(a|b)[0-9x]{2,}$')).toEqual({
      kind: 'seq',
      items: [
        { kind: 'anchor' },
        {
          kind: 'alt',
          options: [
            { kind: 'seq', items: [char('a')] },
            { kind: 'seq', items: [char('b')] },
          ],
        },
        {
          kind: 'repeat',
          node: {
            kind: 'set',
            ranges: [
              [48, 57],
              [120, 120],
            ],
            negated: false,
          },
          min: 2,
          max: Infinity,
        },
        { kind: 'anchor' },
      ],
    });
  });

  it('reads escapes as the code points or classes they stand for', () => {
    expect(parsePattern('\\x41\\u0042\\u{1F600}\\.')).toEqual({
      kind: 'seq',
      items: [char('A'), char('B'), char('😀'), char('.')],
    });
    expect(parsePattern('[^\\d]')).toEqual({
      kind: 'seq',
      items: [{ kind: 'set', ranges: [[48, 57]], negated: true }],
    });
  });

  it.each([
    ['lookahead', '(?=a)b'],
    ['a backreference', '(a)\\1'],
    ['a word boundary', '\\bword'],
    ['a Unicode property escape', '\\p{L}'],
    ['an unclosed group', '(ab'],
    ['an unclosed class', '[ab'],
    ['a quantified anchor', '^*'],
  ])('rejects %s as unsupported', (_, pattern) => {
    expect(() => parsePattern(pattern)).toThrow(UnsupportedPattern);
  });
});
