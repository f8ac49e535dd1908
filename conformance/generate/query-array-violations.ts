import type { OpenAPIV3 } from 'openapi-types';
import {
  effectiveSchema,
  schemaType,
  stableJson,
  type Schema,
} from '../../spec/schema/effective-schema.js';
import { GenerationError, generateValue } from '../../spec/schema/schema-values.js';
import type { Violation } from './negative-values.js';
import { isCommaSeparated, validParameterValue } from './parameter-values.js';
import type { GeneratorDeps } from './positive-bodies.js';
import { serializeQuery } from './serialize-query.js';
import { showValue } from './show-value.js';
import { stringViolations } from './string-violations.js';

/** Raw pieces that break an array query parameter: a bad item, too many items, a repeat. */
export function queryArrayViolations(
  p: OpenAPIV3.ParameterObject,
  s: Schema,
  deps: GeneratorDeps,
): Violation[] {
  const items = effectiveSchema(s.items);
  const comma = isCommaSeparated(p);
  const serializeItems = (values: unknown[]) => serializeQuery(p, p.name, values);
  const valid = (validParameterValue(p, deps) as unknown[] | undefined) ?? [];
  const filler = valid.length > 0 ? valid : [];
  const minItems = s.minItems ?? 0;
  const withBad = (bad: unknown) => [bad, ...filler.slice(0, Math.max(0, minItems - 1))];
  const out: Violation[] = [];
  const itemType = schemaType(items);
  const badItems: Violation[] = [];
  if (itemType === 'string' || items.enum) {
    for (const v of stringViolations(items, deps)) {
      if (!(comma && String(v.value).includes(','))) badItems.push(v);
    }
  } else if (itemType === 'integer' || itemType === 'number') {
    badItems.push({ value: 'abc', what: 'not a number' });
  }
  for (const v of badItems) {
    out.push({
      value: serializeItems(withBad(v.value)),
      what: `has the item ${showValue(v.value)}: ${v.what}`,
    });
  }
  if (s.maxItems !== undefined && s.maxItems < 100) {
    const longer = distinctItems(p, s, s.maxItems + 1, deps);
    if (longer) {
      out.push({
        value: serializeItems(longer),
        what: `has ${longer.length} items, more than maxItems ${s.maxItems}`,
      });
    }
  }
  if (s.uniqueItems && (s.maxItems ?? Infinity) >= 2 && filler.length > 0) {
    out.push({
      value: serializeItems([filler[0], filler[0]]),
      what: `repeats ${JSON.stringify(filler[0])} (uniqueItems)`,
    });
  }
  return out;
}

/** `count` valid items, distinct when the array wants unique items; `undefined` if impossible. */
function distinctItems(
  p: OpenAPIV3.ParameterObject,
  s: Schema,
  count: number,
  deps: GeneratorDeps,
): unknown[] | undefined {
  const items = effectiveSchema(s.items);
  const comma = isCommaSeparated(p);
  const found = new Map<string, unknown>();
  if (items.enum) for (const v of items.enum) if (v !== null) found.set(stableJson(v), v);
  for (let i = 0; found.size < count && !items.enum && i < count * 4; i++) {
    try {
      const v = generateValue(
        items,
        deps.random.fork(`items:${p.name}:${i}`),
        'random',
        deps.validator,
      );
      if (!(comma && String(v).includes(','))) found.set(stableJson(v), v);
    } catch (error) {
      if (error instanceof GenerationError) break;
      throw error;
    }
  }
  const values = [...found.values()];
  if (values.length === 0) return undefined;
  if (values.length >= count) return values.slice(0, count);
  if (s.uniqueItems) return undefined;
  return Array.from({ length: count }, (_, i) => values[i % values.length]);
}
