import { UnsupportedPattern, type CodePointRanges, type PatternNode } from './pattern-node.js';

const DIGIT: CodePointRanges = [[48, 57]];
const WORD: CodePointRanges = [
  [48, 57],
  [65, 90],
  [95, 95],
  [97, 122],
];
const SPACE: CodePointRanges = [
  [32, 32],
  [9, 13],
];

/**
 * The tree of a `pattern` (ECMA-262 syntax): literals and escapes, classes, `.`, groups,
 * alternation, quantifiers and anchors.
 *
 * @throws UnsupportedPattern for lookaround, backreferences, `\b`, Unicode property escapes
 * and syntax errors.
 * @example
 * parsePattern('^a|b$'); // { kind: 'alt', options: [...] }
 */
export function parsePattern(source: string): PatternNode {
  return new Parser(source).parse();
}

class Parser {
  private pos = 0;
  constructor(private readonly source: string) {}

  parse(): PatternNode {
    const node = this.alternation();
    if (this.pos < this.source.length) throw new UnsupportedPattern(`unexpected ${this.peek()}`);
    return node;
  }

  private peek(): string {
    return this.source[this.pos] ?? '';
  }

  private alternation(): PatternNode {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.pos++;
      options.push(this.sequence());
    }
    return options.length === 1 ? (options[0] as PatternNode) : { kind: 'alt', options };
  }

  private sequence(): PatternNode {
    const items: PatternNode[] = [];
    while (this.pos < this.source.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.atom();
      items.push(this.quantified(atom));
    }
    return { kind: 'seq', items };
  }

  private quantified(atom: PatternNode): PatternNode {
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.pos));
      if (!m) throw new UnsupportedPattern('bad quantifier');
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      this.pos += m[0].length - 1;
    } else return atom;
    if (atom.kind === 'anchor') throw new UnsupportedPattern('quantified anchor');
    this.pos++;
    if (this.peek() === '?') this.pos++; // lazy: same strings
    return { kind: 'repeat', node: atom, min, max };
  }

  private atom(): PatternNode {
    const c = this.peek();
    if (c === '^' || c === '$') {
      this.pos++;
      return { kind: 'anchor' };
    }
    if (c === '(') return this.group();
    if (c === '[') return this.charClass();
    if (c === '.') {
      this.pos++;
      return { kind: 'set', ranges: [[10, 10]], negated: true };
    }
    if (c === '\\') {
      this.pos++;
      return this.escape(false);
    }
    if (c === '*' || c === '+' || c === '?' || c === '{' || c === '}' || c === ']') {
      throw new UnsupportedPattern(`stray ${c}`);
    }
    const cp = this.source.codePointAt(this.pos) as number;
    this.pos += cp > 0xffff ? 2 : 1;
    return { kind: 'set', ranges: [[cp, cp]], negated: false };
  }

  private group(): PatternNode {
    this.pos++; // (
    if (this.peek() === '?') {
      const rest = this.source.slice(this.pos, this.pos + 3);
      if (rest.startsWith('?:')) this.pos += 2;
      else if (rest.startsWith('?<') && rest[2] !== '=' && rest[2] !== '!') {
        const end = this.source.indexOf('>', this.pos);
        if (end < 0) throw new UnsupportedPattern('bad group name');
        this.pos = end + 1;
      } else throw new UnsupportedPattern('lookaround');
    }
    const inner = this.alternation();
    if (this.peek() !== ')') throw new UnsupportedPattern('unclosed group');
    this.pos++;
    return inner;
  }

  private charClass(): PatternNode {
    this.pos++; // [
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.pos++;
    }
    const ranges: CodePointRanges = [];
    while (this.peek() !== ']') {
      if (this.pos >= this.source.length) throw new UnsupportedPattern('unclosed class');
      const lo = this.classAtom();
      if (Array.isArray(lo)) {
        ranges.push(...lo);
        continue;
      }
      if (
        this.peek() === '-' &&
        this.source[this.pos + 1] !== ']' &&
        this.pos + 1 < this.source.length
      ) {
        this.pos++;
        const hi = this.classAtom();
        if (Array.isArray(hi) || hi < lo) throw new UnsupportedPattern('bad range');
        ranges.push([lo, hi]);
      } else {
        ranges.push([lo, lo]);
      }
    }
    this.pos++; // ]
    if (ranges.length === 0) throw new UnsupportedPattern('empty class');
    return { kind: 'set', ranges, negated };
  }

  /** One code point of a class, or the ranges of a class escape such as `\d`. */
  private classAtom(): number | CodePointRanges {
    if (this.peek() === '\\') {
      this.pos++;
      const node = this.escape(true);
      if (node.kind !== 'set') throw new UnsupportedPattern('escape in class');
      if (node.negated) throw new UnsupportedPattern('negated escape in class');
      const only = node.ranges[0] as [number, number];
      return node.ranges.length === 1 && only[0] === only[1] ? only[0] : node.ranges;
    }
    const cp = this.source.codePointAt(this.pos) as number;
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  private escape(inClass: boolean): PatternNode {
    const c = this.peek();
    this.pos++;
    const set = (ranges: CodePointRanges, negated = false): PatternNode => ({
      kind: 'set',
      ranges,
      negated,
    });
    switch (c) {
      case 'd':
        return set(DIGIT);
      case 'D':
        return set(DIGIT, true);
      case 'w':
        return set(WORD);
      case 'W':
        return set(WORD, true);
      case 's':
        return set(SPACE);
      case 'S':
        return set(SPACE, true);
      case 't':
        return set([[9, 9]]);
      case 'n':
        return set([[10, 10]]);
      case 'r':
        return set([[13, 13]]);
      case 'f':
        return set([[12, 12]]);
      case 'v':
        return set([[11, 11]]);
      case '0':
        return set([[0, 0]]);
      case 'x': {
        const hex = /^[0-9a-fA-F]{2}/.exec(this.source.slice(this.pos));
        if (!hex) throw new UnsupportedPattern('bad \\x');
        this.pos += 2;
        const cp = parseInt(hex[0], 16);
        return set([[cp, cp]]);
      }
      case 'u': {
        const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(this.source.slice(this.pos));
        const plain = /^[0-9a-fA-F]{4}/.exec(this.source.slice(this.pos));
        const hex = braced ? braced[1] : plain?.[0];
        if (!hex) throw new UnsupportedPattern('bad \\u');
        this.pos += (braced ?? plain)?.[0].length ?? 0;
        const cp = parseInt(hex, 16);
        return set([[cp, cp]]);
      }
      case 'b':
        if (inClass) return set([[8, 8]]);
        throw new UnsupportedPattern('word boundary');
      case 'B':
      case 'p':
      case 'P':
      case 'k':
      case 'c':
        throw new UnsupportedPattern(`\\${c}`);
      case '':
        throw new UnsupportedPattern('trailing backslash');
      default: {
        if (/[1-9]/.test(c)) throw new UnsupportedPattern('backreference');
        const cp = c.codePointAt(0) as number;
        return set([[cp, cp]]);
      }
    }
  }
}
