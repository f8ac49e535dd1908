import { travels, type Schema } from './effective-schema.js';
import { GenerationError } from './generation-error.js';
import { SOFT_DEPTH, type GenerateChild, type ValueContext } from './value-context.js';

/** A valid object of an object schema, its property values made by `generate`. */
export function generateObject(
  s: Schema,
  ctx: ValueContext,
  depth: number,
  generate: GenerateChild,
): Record<string, unknown> {
  const required = new Set(s.required ?? []);
  const present = Object.entries(s.properties ?? {}).filter(([, p]) => travels(p, ctx.direction));
  const shallow = depth > SOFT_DEPTH;
  let chosen = present.filter(([name]) => {
    if (required.has(name)) return true;
    if (shallow || ctx.mode === 'minimal') return false;
    if (ctx.mode === 'random') return ctx.random.next() < 0.5;
    return true;
  });
  const maxProperties = s.maxProperties ?? Infinity;
  while (chosen.length > maxProperties) {
    const optional = chosen.findLastIndex(([name]) => !required.has(name));
    if (optional < 0) break;
    chosen = chosen.filter((_, i) => i !== optional);
  }
  const out: Record<string, unknown> = {};
  for (const [name, property] of chosen) {
    try {
      out[name] = generate(property, ctx, depth + 1);
    } catch (error) {
      if (!(error instanceof GenerationError) || required.has(name)) throw error;
    }
  }
  // Required names without a property schema take the additionalProperties schema.
  const extra = typeof s.additionalProperties === 'object' ? s.additionalProperties : {};
  for (const name of required) {
    if (name in out || s.properties?.[name]) continue;
    out[name] = generate(extra, ctx, depth + 1);
  }
  const minProperties = s.minProperties ?? 0;
  for (const [name, property] of present) {
    if (Object.keys(out).length >= minProperties) break;
    if (!(name in out)) out[name] = generate(property, ctx, depth + 1);
  }
  for (let i = 1; Object.keys(out).length < minProperties; i++) {
    if (s.additionalProperties === false) throw new GenerationError('minProperties unreachable');
    out[`extra${i}`] = generate(extra, ctx, depth + 1);
  }
  return out;
}
