import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../spec/operations.js';
import { effectiveSchema, schemaType, stableJson } from '../../spec/schema/effective-schema.js';
import { patternStrings } from '../../spec/schema/pattern-strings.js';
import {
  isCommaSeparated,
  isValidParameterValue,
  parameterExamples,
  parameterSchema,
  parametersIn,
  validParameterValue,
} from './parameter-values.js';
import type { GeneratorDeps } from './positive-bodies.js';
import { numericRange } from '../../spec/schema/numeric-range.js';
import { GenerationError, generateValue, type ValueMode } from '../../spec/schema/schema-values.js';

/** Most items of an array query parameter made on purpose (`maxItems` beyond is not met). */
const QUERY_ITEMS_CAP = 10;
/** Distinct alternatives of a pattern listed per query parameter (each sent once). */
const PATTERN_ALTERNATIVES_CAP = 24;

/**
 * Valid query parameter sets of an operation, `count` at most: `{}` (every optional
 * parameter left to its default; required ones get a valid value), one set with every
 * parameter's example, further examples one by one, then boundaries one parameter at a time:
 * numbers at minimum and maximum, each enum value, strings at minLength and maxLength,
 * booleans both ways, arrays with one item (each enum value) and with several. Values are
 * typed (numbers, arrays) and travel as the parameter's style says (see `buildRequest`).
 */
export function positiveQueries(
  op: SpecOperation,
  count: number,
  deps: GeneratorDeps,
): Record<string, unknown>[] {
  if (count <= 0) return [];
  const params = parametersIn(op, 'query');
  const base: Record<string, unknown> = {};
  for (const p of params.filter((q) => q.required)) {
    const value = validParameterValue(p, deps);
    if (value === undefined) return [];
    base[p.name] = value;
  }
  const out: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  const add = (extra: Record<string, unknown>) => {
    if (out.length >= count) return;
    for (const [name, value] of Object.entries(extra)) {
      const p = params.find((q) => q.name === name);
      if (!p || !isValidParameterValue(p, value, deps)) return;
    }
    const query = { ...base, ...extra };
    const key = stableJson(query);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(structuredClone(query));
  };

  add({});
  const combined: Record<string, unknown> = {};
  for (const p of params) {
    const example = parameterExamples(p).find((v) => isValidParameterValue(p, v, deps));
    if (example !== undefined) combined[p.name] = example;
  }
  add(combined);
  for (const p of params) {
    for (const example of parameterExamples(p).slice(1)) add({ [p.name]: example });
  }
  // Every boundary value of every parameter within a few queries: the k-th value of each
  // parameter together (parameters are independent), then each value alone.
  const boundaries = params
    .map((p) => ({ p, values: boundaryValues(p, deps) }))
    .filter((b) => b.values.length > 0);
  const longest = Math.max(0, ...boundaries.map((b) => b.values.length));
  for (let k = 0; k < longest; k++) {
    add(Object.fromEntries(boundaries.map(({ p, values }) => [p.name, values[k % values.length]])));
  }
  for (const { p, values } of boundaries) {
    for (const value of values) add({ [p.name]: value });
  }
  return out;
}

/** Valid values of one parameter at its edges. */
function boundaryValues(p: OpenAPIV3.ParameterObject, deps: GeneratorDeps): unknown[] {
  const s = effectiveSchema(parameterSchema(p));
  const type = schemaType(s);
  if (s.enum) return s.enum.filter((v) => v !== null);
  switch (type) {
    case 'integer':
    case 'number': {
      const range = numericRange(s, type === 'integer');
      if (!range) return [];
      return [...(range.explicitLo ? [range.lo] : []), ...(range.explicitHi ? [range.hi] : [])];
    }
    case 'boolean':
      return [true, false];
    case 'string': {
      const modes: ValueMode[] = [];
      if (s.minLength !== undefined) modes.push('low');
      if (s.maxLength !== undefined) modes.push('high');
      if (s.pattern !== undefined || s.format !== undefined) modes.push('random');
      return modes.flatMap((mode) => generated(s, mode, `${p.name}:${mode}`, deps));
    }
    case 'array':
      return arrayValues(p, deps);
    default:
      return [];
  }
}

function arrayValues(p: OpenAPIV3.ParameterObject, deps: GeneratorDeps): unknown[][] {
  const s = effectiveSchema(parameterSchema(p));
  const items = effectiveSchema(s.items);
  const usable = (v: unknown) => !(isCommaSeparated(p) && String(v).includes(','));
  let values: unknown[];
  if (items.enum) values = items.enum.filter((v) => v !== null && usable(v));
  else {
    const found = new Map<string, unknown>();
    // A pattern's alternatives are listed out, so that every branch is sent at least once.
    const listed = items.pattern
      ? (patternStrings(items.pattern)?.enumerate(PATTERN_ALTERNATIVES_CAP) ?? [])
      : [];
    for (const v of listed)
      if (usable(v) && isValidParameterValue(p, [v], deps)) found.set(stableJson(v), v);
    for (let i = 0; i < QUERY_ITEMS_CAP * 2 && found.size < QUERY_ITEMS_CAP + listed.length; i++) {
      for (const v of generated(items, 'random', `${p.name}:item:${i}`, deps)) {
        if (usable(v)) found.set(stableJson(v), v);
      }
    }
    values = [...found.values()];
  }
  if (values.length === 0) return [];
  const out: unknown[][] = items.enum || items.pattern ? values.map((v) => [v]) : [[values[0]]];
  const maxItems = s.maxItems ?? Infinity;
  const several = Math.min(maxItems, 3, values.length);
  if (several >= 2) out.push(values.slice(0, several));
  if (maxItems <= QUERY_ITEMS_CAP && maxItems > several) {
    if (values.length >= maxItems) out.push(values.slice(0, maxItems));
    else if (!s.uniqueItems) {
      out.push(Array.from({ length: maxItems }, (_, i) => values[i % values.length]));
    }
  }
  return out;
}

function generated(
  schema: Parameters<typeof generateValue>[0],
  mode: ValueMode,
  label: string,
  deps: GeneratorDeps,
): unknown[] {
  try {
    return [generateValue(schema, deps.random.fork(label), mode, deps.validator)];
  } catch (error) {
    if (error instanceof GenerationError) return [];
    throw error;
  }
}
