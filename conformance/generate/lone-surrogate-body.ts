import { effectiveSchema, isReadOnly, type Schema } from '../../spec/schema/effective-schema.js';
import { applyAt, bodyPointer, type Segment } from './body-mutation.js';
import type { NegativeCase } from './case-generator.js';

const SURROGATE_MARK = 'conform-lone-surrogate-mark';

/**
 * The body as JSON text with one string property holding an escaped lone surrogate
 * (`"\ud800"`), which no UTF-8 text can carry: the escape survives serialization.
 */
export function loneSurrogateBody(
  schema: Schema,
  base: unknown,
  fresh: () => unknown,
): NegativeCase | undefined {
  const target = findString(schema, base, []);
  if (!target) return undefined;
  const body = applyAt(fresh(), target.segments, () => SURROGATE_MARK);
  const text = 'a'.repeat(Math.max(0, target.minLength - 1)) + '\\ud800';
  return {
    convention: 'lone-surrogates',
    description: `${target.segments.join('/')} contains a lone surrogate (\\ud800), not valid Unicode`,
    pointer: bodyPointer(target.segments),
    call: { rawBody: JSON.stringify(body).replace(JSON.stringify(SURROGATE_MARK), `"${text}"`) },
  };
}

/** The first free-text string property of the body (no format, pattern or enum), by depth. */
function findString(
  raw: Schema,
  value: unknown,
  segments: Segment[],
): { segments: Segment[]; minLength: number } | undefined {
  if (segments.length > 8 || !value || typeof value !== 'object') return undefined;
  const s = effectiveSchema(raw);
  const children: [Segment, Schema, unknown][] = Array.isArray(value)
    ? value.length > 0
      ? [[0, s.items ?? {}, value[0]]]
      : []
    : Object.entries(s.properties ?? {})
        .filter(([name, p]) => !isReadOnly(p) && name in (value as object))
        .map(([name, p]) => [name, p, (value as Record<string, unknown>)[name]]);
  for (const [key, child, v] of children) {
    const c = effectiveSchema(child);
    if (typeof v === 'string' && !c.format && !c.pattern && !c.enum) {
      return { segments: [...segments, key], minLength: c.minLength ?? 0 };
    }
  }
  for (const [key, child, v] of children) {
    const found = findString(child, v, [...segments, key]);
    if (found) return found;
  }
  return undefined;
}
