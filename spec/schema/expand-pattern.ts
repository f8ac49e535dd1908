import { PRINTABLE, type PatternNode } from './pattern-node.js';

/** Classes larger than this contribute their first few members only. */
const ENUMERATED_CLASS_MEMBERS = 3;

/** Every string a node can produce, systematically, capped at `limit` at every level. */
export function expandPattern(node: PatternNode, limit: number): string[] {
  switch (node.kind) {
    case 'anchor':
      return [''];
    case 'alt':
      return node.options.flatMap((option) => expandPattern(option, limit)).slice(0, limit);
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
      const parts = node.items.map((item) => expandPattern(item, limit));
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
      const inner = expandPattern(node.node, limit);
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
