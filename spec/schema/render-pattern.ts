import {
  PRINTABLE,
  UnsupportedPattern,
  type CodePointRanges,
  type PatternNode,
} from './pattern-node.js';
import type { SeededRandom } from './seeded-random.js';

/** How long the strings of a pattern should be: shortest, longest or anything. */
export type PatternBias = 'low' | 'high' | 'random';

/** Unbounded repeats (`*`, `+`, `{n,}`) run up to this many times past their minimum. */
const UNBOUNDED_EXTRA = 4;

/** One random string of a node; `bias` puts its repeats at their minimum, maximum or anywhere. */
export function renderPattern(node: PatternNode, random: SeededRandom, bias: PatternBias): string {
  switch (node.kind) {
    case 'seq':
      return node.items.map((item) => renderPattern(item, random, bias)).join('');
    case 'alt':
      return renderPattern(random.pick(node.options), random, bias);
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
      for (let i = 0; i < count; i++) out += renderPattern(node.node, random, bias);
      return out;
    }
  }
}

function pickCodePoint(
  node: { ranges: CodePointRanges; negated: boolean },
  random: SeededRandom,
): number {
  const inCodePointRanges = (cp: number) => node.ranges.some(([lo, hi]) => cp >= lo && cp <= hi);
  if (node.negated) {
    const allowed = PRINTABLE.filter((cp) => !inCodePointRanges(cp) && cp !== 0x20);
    if (allowed.length === 0) throw new UnsupportedPattern('empty negated class');
    return random.pick(allowed);
  }
  // Prefer readable characters when the class has them.
  const readable = PRINTABLE.filter((cp) => cp !== 0x20 && inCodePointRanges(cp));
  if (readable.length > 0 && random.next() < 0.9) return random.pick(readable);
  const [lo, hi] = random.pick(node.ranges);
  return random.int(lo, hi);
}
