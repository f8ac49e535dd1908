import { stableJson, type Schema } from './effective-schema.js';
import { GenerationError } from './generation-error.js';
import { SOFT_DEPTH, type GenerateChild, type ValueContext } from './value-context.js';

/** Most items made on purpose for a `high` array; a larger maxItems is not met exactly. */
export const ITEMS_CAP = 100;

/** A valid array of an array schema, its items made by `generate`. */
export function generateArray(
  s: Schema,
  ctx: ValueContext,
  depth: number,
  generate: GenerateChild,
): unknown[] {
  const min = s.minItems ?? 0;
  const max = s.maxItems ?? Infinity;
  if (min > max) throw new GenerationError('minItems above maxItems');
  const atLeastOne = Math.min(max, Math.max(min, 1));
  let count: number;
  if (depth > SOFT_DEPTH) count = min;
  else if (ctx.mode === 'minimal') count = min;
  else if (ctx.mode === 'low') count = atLeastOne;
  else if (ctx.mode === 'high') count = max <= ITEMS_CAP ? max : Math.max(min, 3);
  else if (ctx.mode === 'random') count = ctx.random.int(min, Math.min(max, min + 3));
  else count = Math.min(max, Math.max(min, ctx.random.int(1, 2)));
  const items = s.items ?? {};
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (let attempt = 0; out.length < count && attempt < count + 20; attempt++) {
    // Repeats of a fixed mode would be equal: vary the later items when they must differ.
    const itemCtx = s.uniqueItems && attempt > 0 ? { ...ctx, mode: 'random' as const } : ctx;
    const item = generate(items, itemCtx, depth + 1);
    if (s.uniqueItems) {
      const key = stableJson(item);
      if (seen.has(key)) continue;
      seen.add(key);
    }
    out.push(item);
  }
  if (out.length < min) throw new GenerationError('not enough distinct items');
  return out;
}
