/** Inclusive code point ranges of a character class. */
export type CodePointRanges = [number, number][];

/** A parsed `pattern`: what `parsePattern` builds and the expander and renderer walk. */
export type PatternNode =
  | { kind: 'seq'; items: PatternNode[] }
  | { kind: 'alt'; options: PatternNode[] }
  | { kind: 'set'; ranges: CodePointRanges; negated: boolean }
  | { kind: 'repeat'; node: PatternNode; min: number; max: number }
  | { kind: 'anchor' };

/** Raised for syntax the pattern generator does not support (lookaround, `\b`...). */
export class UnsupportedPattern extends Error {}

/** What a negated class or `.` draws from: printable ASCII. */
export const PRINTABLE = Array.from({ length: 0x7e - 0x20 + 1 }, (_, i) => 0x20 + i);
