import type { SeededRandom } from './seeded-random.js';

/** How long the strings of a pattern should be: shortest, longest or anything. */
export type PatternBias = 'low' | 'high' | 'random';

/** Strings that match a regular expression (`pattern`, ECMA-262 with the `u` flag, as ajv). */
export interface PatternStrings {
  /** Whether a string matches the pattern (a search, not a full match, as JSON Schema says). */
  matches(value: string): boolean;
  /**
   * A matching string whose length in code points is within [minLength, maxLength], or
   * `undefined` when none was found in a bounded number of tries.
   */
  sample(random: SeededRandom, limits?: LengthLimits, bias?: PatternBias): string | undefined;
  /**
   * Up to `limit` distinct matching strings that walk the pattern's choices systematically:
   * every branch of an alternation, every member of a small class, optional parts with and
   * without (unbounded repeats at their minimum and one more). So `^(id|email)(,(asc|desc))?$`
   * yields all six sort keys, where sampling might never draw `email,desc`.
   */
  enumerate(limit: number): string[];
}

export interface LengthLimits {
  minLength?: number;
  maxLength?: number;
}

type Ranges = [number, number][];
type Node =
  | { kind: 'seq'; items: Node[] }
  | { kind: 'alt'; options: Node[] }
  | { kind: 'set'; ranges: Ranges; negated: boolean }
  | { kind: 'repeat'; node: Node; min: number; max: number }
  | { kind: 'anchor' };

class Unsupported extends Error {}

const DIGIT: Ranges = [[48, 57]];
const WORD: Ranges = [
  [48, 57],
  [65, 90],
  [95, 95],
  [97, 122],
];
const SPACE: Ranges = [
  [32, 32],
  [9, 13],
];
/** What a negated class or `.` draws from: printable ASCII. */
const PRINTABLE = Array.from({ length: 0x7e - 0x20 + 1 }, (_, i) => 0x20 + i);
const UNBOUNDED_EXTRA = 4;
const TRIES = 40;

/**
 * A generator for the strings of a pattern, or `undefined` when the pattern uses what it does
 * not support (lookaround, backreferences, `\b`, Unicode property escapes) or is not a valid
 * regular expression. Supported: literals and escapes, classes (`[a-z_]`, `[^,]`, `\d\w\s`),
 * `.`, groups (capturing, `(?:)`, named), alternation, `? * + {n} {n,} {n,m}` and anchors.
 * Every sample is checked against the real regular expression.
 *
 * @example
 * patternStrings('^(id|name)(,(asc|desc))?$')?.sample(random); // e.g. 'name,desc'
 */
export function patternStrings(pattern: string): PatternStrings | undefined {
  const regex = toRegExp(pattern);
  if (!regex) return undefined;
  let tree: Node;
  try {
    tree = new Parser(pattern).parse();
  } catch {
    return undefined;
  }
  const matches = (value: string) => regex.test(value);
  return {
    matches,
    enumerate(limit) {
      return [...new Set(expand(tree, limit))].filter(matches).slice(0, limit);
    },
    sample(random, limits = {}, bias = 'random') {
      const min = limits.minLength ?? 0;
      const max = limits.maxLength ?? Infinity;
      let best: string | undefined;
      for (let i = 0; i < TRIES; i++) {
        const candidate = render(tree, random, i < TRIES / 2 ? bias : 'random');
        const length = [...candidate].length;
        if (length < min || length > max || !matches(candidate)) continue;
        if (bias === 'random') return candidate;
        if (best === undefined) best = candidate;
        else if (bias === 'low' ? length < [...best].length : length > [...best].length) {
          best = candidate;
        }
      }
      return best;
    },
  };
}

/**
 * A string that does NOT match the pattern and whose length is within the limits (so that
 * only the pattern is broken), preferring ones that look like a plausible mistake.
 */
export function patternMismatch(
  pattern: string,
  limits: LengthLimits = {},
  valid?: string,
): string | undefined {
  const regex = toRegExp(pattern);
  if (!regex) return undefined;
  const min = limits.minLength ?? 0;
  const max = limits.maxLength ?? Infinity;
  const candidates = [
    'unknownValue',
    ...(valid !== undefined ? [`${valid}!`, `!${valid}`, `${valid} `] : []),
    'zzz',
    '!',
    '~',
    '-',
    ' ',
    '0',
    'a',
    'A',
    '',
    '!'.repeat(Math.max(min, 1)),
    'x'.repeat(Math.max(min, 1)),
  ];
  return candidates.find((c) => {
    const length = [...c].length;
    return length >= min && length <= max && !regex.test(c);
  });
}

function toRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return undefined;
    }
  }
}

/** Classes larger than this contribute their first few members only. */
const ENUMERATED_CLASS_MEMBERS = 3;

/** Every string a node can produce, systematically, capped at `limit` at every level. */
function expand(node: Node, limit: number): string[] {
  switch (node.kind) {
    case 'anchor':
      return [''];
    case 'alt':
      return node.options.flatMap((option) => expand(option, limit)).slice(0, limit);
    case 'set': {
      if (node.negated)
        return [
          String.fromCodePoint(
            PRINTABLE.find(
              (cp) => !node.ranges.some(([lo, hi]) => cp >= lo && cp <= hi) && cp !== 0x20,
            ) ?? 0x61,
          ),
        ];
      const members: string[] = [];
      for (const [lo, hi] of node.ranges) {
        for (let cp = lo; cp <= hi && members.length < ENUMERATED_CLASS_MEMBERS; cp++)
          members.push(String.fromCodePoint(cp));
      }
      return members;
    }
    case 'seq': {
      const parts = node.items.map((item) => expand(item, limit));
      // Each choice first: the k-th option of every part together, so that few strings cover
      // every branch; then the rest of the full product.
      const widest = Math.max(1, ...parts.map((p) => p.length));
      const eachChoice = Array.from({ length: widest }, (_, k) =>
        parts.map((p) => p[k % p.length] ?? '').join(''),
      );
      let product = [''];
      for (const options of parts) {
        product = product.flatMap((prefix) => options.map((part) => prefix + part)).slice(0, limit);
      }
      return [...new Set([...eachChoice, ...product])].slice(0, limit);
    }
    case 'repeat': {
      const inner = expand(node.node, limit);
      const counts =
        Number.isFinite(node.max) && node.max - node.min <= 2
          ? range(node.min, node.max)
          : [node.min, node.min + 1];
      return counts
        .flatMap((count) => {
          let out = [''];
          for (let i = 0; i < count; i++)
            out = out.flatMap((prefix) => inner.map((part) => prefix + part)).slice(0, limit);
          return out;
        })
        .slice(0, limit);
    }
  }
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

function render(node: Node, random: SeededRandom, bias: PatternBias): string {
  switch (node.kind) {
    case 'seq':
      return node.items.map((item) => render(item, random, bias)).join('');
    case 'alt':
      return render(random.pick(node.options), random, bias);
    case 'anchor':
      return '';
    case 'set':
      return String.fromCodePoint(pickCodePoint(node, random));
    case 'repeat': {
      const top = Number.isFinite(node.max) ? node.max : node.min + UNBOUNDED_EXTRA;
      const count =
        bias === 'low'
          ? node.min
          : bias === 'high'
            ? top
            : random.int(node.min, Math.min(top, node.min + 3));
      let out = '';
      for (let i = 0; i < count; i++) out += render(node.node, random, bias);
      return out;
    }
  }
}

function pickCodePoint(node: { ranges: Ranges; negated: boolean }, random: SeededRandom): number {
  const inRanges = (cp: number) => node.ranges.some(([lo, hi]) => cp >= lo && cp <= hi);
  if (node.negated) {
    const allowed = PRINTABLE.filter((cp) => !inRanges(cp) && cp !== 0x20);
    if (allowed.length === 0) throw new Unsupported('empty negated class');
    return random.pick(allowed);
  }
  // Prefer readable characters when the class has them.
  const readable = PRINTABLE.filter((cp) => cp !== 0x20 && inRanges(cp));
  if (readable.length > 0 && random.next() < 0.9) return random.pick(readable);
  const [lo, hi] = random.pick(node.ranges);
  return random.int(lo, hi);
}

class Parser {
  private pos = 0;
  constructor(private readonly source: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.pos < this.source.length) throw new Unsupported(`unexpected ${this.peek()}`);
    return node;
  }

  private peek(): string {
    return this.source[this.pos] ?? '';
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.pos++;
      options.push(this.sequence());
    }
    return options.length === 1 ? (options[0] as Node) : { kind: 'alt', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.pos < this.source.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.atom();
      items.push(this.quantified(atom));
    }
    return { kind: 'seq', items };
  }

  private quantified(atom: Node): Node {
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.pos));
      if (!m) throw new Unsupported('bad quantifier');
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      this.pos += m[0].length - 1;
    } else return atom;
    if (atom.kind === 'anchor') throw new Unsupported('quantified anchor');
    this.pos++;
    if (this.peek() === '?') this.pos++; // lazy: same strings
    return { kind: 'repeat', node: atom, min, max };
  }

  private atom(): Node {
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
      throw new Unsupported(`stray ${c}`);
    }
    const cp = this.source.codePointAt(this.pos) as number;
    this.pos += cp > 0xffff ? 2 : 1;
    return { kind: 'set', ranges: [[cp, cp]], negated: false };
  }

  private group(): Node {
    this.pos++; // (
    if (this.peek() === '?') {
      const rest = this.source.slice(this.pos, this.pos + 3);
      if (rest.startsWith('?:')) this.pos += 2;
      else if (rest.startsWith('?<') && rest[2] !== '=' && rest[2] !== '!') {
        const end = this.source.indexOf('>', this.pos);
        if (end < 0) throw new Unsupported('bad group name');
        this.pos = end + 1;
      } else throw new Unsupported('lookaround');
    }
    const inner = this.alternation();
    if (this.peek() !== ')') throw new Unsupported('unclosed group');
    this.pos++;
    return inner;
  }

  private charClass(): Node {
    this.pos++; // [
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.pos++;
    }
    const ranges: Ranges = [];
    while (this.peek() !== ']') {
      if (this.pos >= this.source.length) throw new Unsupported('unclosed class');
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
        if (Array.isArray(hi) || hi < lo) throw new Unsupported('bad range');
        ranges.push([lo, hi]);
      } else {
        ranges.push([lo, lo]);
      }
    }
    this.pos++; // ]
    if (ranges.length === 0) throw new Unsupported('empty class');
    return { kind: 'set', ranges, negated };
  }

  /** One code point of a class, or the ranges of a class escape such as `\d`. */
  private classAtom(): number | Ranges {
    if (this.peek() === '\\') {
      this.pos++;
      const node = this.escape(true);
      if (node.kind !== 'set') throw new Unsupported('escape in class');
      if (node.negated) throw new Unsupported('negated escape in class');
      const only = node.ranges[0] as [number, number];
      return node.ranges.length === 1 && only[0] === only[1] ? only[0] : node.ranges;
    }
    const cp = this.source.codePointAt(this.pos) as number;
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  private escape(inClass: boolean): Node {
    const c = this.peek();
    this.pos++;
    const set = (ranges: Ranges, negated = false): Node => ({ kind: 'set', ranges, negated });
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
        if (!hex) throw new Unsupported('bad \\x');
        this.pos += 2;
        const cp = parseInt(hex[0], 16);
        return set([[cp, cp]]);
      }
      case 'u': {
        const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(this.source.slice(this.pos));
        const plain = /^[0-9a-fA-F]{4}/.exec(this.source.slice(this.pos));
        const hex = braced ? braced[1] : plain?.[0];
        if (!hex) throw new Unsupported('bad \\u');
        this.pos += (braced ?? plain)?.[0].length ?? 0;
        const cp = parseInt(hex, 16);
        return set([[cp, cp]]);
      }
      case 'b':
        if (inClass) return set([[8, 8]]);
        throw new Unsupported('word boundary');
      case 'B':
      case 'p':
      case 'P':
      case 'k':
      case 'c':
        throw new Unsupported(`\\${c}`);
      case '':
        throw new Unsupported('trailing backslash');
      default: {
        if (/[1-9]/.test(c)) throw new Unsupported('backreference');
        const cp = c.codePointAt(0) as number;
        return set([[cp, cp]]);
      }
    }
  }
}
