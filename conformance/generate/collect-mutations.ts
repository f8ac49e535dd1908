import {
  effectiveSchema,
  isReadOnly,
  schemaType,
  type Schema,
} from '../../spec/schema/effective-schema.js';
import { patternMismatch } from '../../spec/schema/pattern-strings.js';
import { GenerationError, generateValue } from '../../spec/schema/schema-values.js';
import { REMOVE, type Mutation, type Segment } from './body-mutation.js';
import {
  badFormatString,
  describeJson,
  MAX_NEGATIVE_LENGTH,
  notInEnum,
  numberViolations,
  stringOfLength,
  withArticle,
  wrongTypeValue,
} from './negative-values.js';
import { MAX_BODY_CHARS, type GeneratorDeps } from './positive-bodies.js';

const MAX_ITEMS_BROKEN = 1000;

/**
 * Every single-rule break of `value` (valid for `raw`) and of its parts, depth first: null,
 * the wrong type, enum, string, number, array and object rules.
 */
export function collectMutations(
  raw: Schema,
  value: unknown,
  segments: Segment[],
  out: Mutation[],
  deps: GeneratorDeps,
): void {
  if (segments.length > 16) return;
  const s = chooseBranch(raw, value, deps);
  const root = segments.length === 0;
  const where = root ? 'the body' : segments.join('/');
  const type = schemaType(s);
  const set = (what: string, bad: unknown, at: Segment[] = segments) =>
    out.push({ description: `${where} ${what}`, segments: at, change: () => bad });

  if (!root) {
    if (s.nullable !== true && !(s.enum ?? []).includes(null)) set('is null (not nullable)', null);
    if (type !== undefined) {
      const wrong = wrongTypeValue(type, value);
      set(`is ${describeJson(wrong)}, not ${withArticle(type)}`, wrong);
    }
  }
  if (s.enum) {
    const bad = notInEnum(s);
    if (bad) set(`is ${JSON.stringify(bad.value)}, ${bad.what}`, bad.value);
  }
  switch (type) {
    case 'string':
      if (!s.enum) stringCases(s, value, set, deps);
      break;
    case 'integer':
    case 'number':
      if (!s.enum) {
        for (const v of numberViolations(s, type === 'integer', value))
          set(`is ${v.what}`, v.value);
      }
      break;
    case 'array':
      arrayCases(s, value, segments, where, out, deps);
      break;
    case 'object':
      objectCases(s, value, segments, where, out, deps);
      break;
  }
}

/** The schema with `allOf` merged and, for `oneOf`/`anyOf`, the branch the value matches. */
function chooseBranch(raw: Schema, value: unknown, deps: GeneratorDeps): Schema {
  let s = effectiveSchema(raw);
  for (let i = 0; i < 4 && (s.oneOf || s.anyOf); i++) {
    const key = s.oneOf ? 'oneOf' : 'anyOf';
    const branches = s[key] ?? [];
    const rest: Schema = { ...s };
    delete rest[key];
    const match = branches.find((b) => deps.validator.check(b, value) === true) ?? branches[0];
    s = match ? effectiveSchema({ allOf: [rest, match] }) : rest;
  }
  return s;
}

function stringCases(
  s: Schema,
  value: unknown,
  set: (what: string, bad: unknown) => void,
  deps: GeneratorDeps,
): void {
  const min = s.minLength ?? 0;
  if (min > 0) {
    const short = stringOfLength(s, min - 1, deps);
    if (short !== undefined) set(`shorter than minLength ${min} (${min - 1} code points)`, short);
  }
  if (s.maxLength !== undefined && s.maxLength < MAX_NEGATIVE_LENGTH) {
    const long = stringOfLength(s, s.maxLength + 1, deps);
    if (long !== undefined) {
      set(`longer than maxLength ${s.maxLength} (${s.maxLength + 1} code points)`, long);
    }
  }
  const format = badFormatString(s);
  if (format) set(`is ${format.what}: ${JSON.stringify(format.value)}`, format.value);
  if (s.pattern !== undefined) {
    const valid = typeof value === 'string' ? value : undefined;
    const bad = patternMismatch(s.pattern, s, valid);
    if (bad !== undefined) set(`does not match pattern ${s.pattern}: ${JSON.stringify(bad)}`, bad);
  }
}

function arrayCases(
  s: Schema,
  value: unknown,
  segments: Segment[],
  where: string,
  out: Mutation[],
  deps: GeneratorDeps,
): void {
  if (!Array.isArray(value)) return;
  const items = s.items ?? {};
  const push = (what: string, bad: unknown[]) => {
    if (JSON.stringify(bad).length > MAX_BODY_CHARS) return;
    out.push({ description: `${where} ${what}`, segments, change: () => structuredClone(bad) });
  };
  if (s.maxItems !== undefined && s.maxItems < MAX_ITEMS_BROKEN) {
    const longer = extendTo(value, s.maxItems + 1, items, s.uniqueItems === true, deps);
    if (longer) push(`has ${longer.length} items, more than maxItems ${s.maxItems}`, longer);
  }
  if (s.minItems !== undefined && s.minItems > 0 && value.length >= s.minItems) {
    push(
      `has ${s.minItems - 1} items, fewer than minItems ${s.minItems}`,
      value.slice(0, s.minItems - 1),
    );
  }
  if (s.uniqueItems && value.length > 0 && (s.maxItems ?? Infinity) >= 2) {
    const repeated = [value[0], value[0], ...value.slice(2)];
    push('has a repeated item (uniqueItems)', repeated);
  }
  if (value.length > 0) collectMutations(items, value[0], [...segments, 0], out, deps);
}

/** The items extended to `length` (distinct if they must be), or `undefined`. */
function extendTo(
  value: unknown[],
  length: number,
  items: Schema,
  unique: boolean,
  deps: GeneratorDeps,
): unknown[] | undefined {
  const out = [...value];
  const keys = new Set(out.map((v) => JSON.stringify(v)));
  for (let i = 0; out.length < length && i < length * 3; i++) {
    let next: unknown;
    if (!unique && value.length > 0) next = value[i % value.length];
    else {
      try {
        next = generateValue(items, deps.random.fork(`extend:${i}`), 'random', deps.validator);
      } catch (error) {
        if (error instanceof GenerationError) return undefined;
        throw error;
      }
      if (unique && keys.has(JSON.stringify(next))) continue;
    }
    keys.add(JSON.stringify(next));
    out.push(next);
  }
  return out.length === length ? out : undefined;
}

function objectCases(
  s: Schema,
  value: unknown,
  segments: Segment[],
  where: string,
  out: Mutation[],
  deps: GeneratorDeps,
): void {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return;
  const record = value as Record<string, unknown>;
  const properties = s.properties ?? {};
  for (const name of s.required ?? []) {
    if (!(name in record) || isReadOnly(properties[name])) continue;
    out.push({
      description: `${[...segments, name].join('/')} is missing (required)`,
      segments: [...segments, name],
      change: () => REMOVE,
    });
  }
  if (s.additionalProperties === false) {
    let unknown = 'unknownProperty';
    for (let i = 2; unknown in properties || unknown in record; i++)
      unknown = `unknownProperty${i}`;
    out.push({
      description: `${where} has the unknown property ${unknown} (additionalProperties is false)`,
      segments: [...segments, unknown],
      change: () => 'unexpected',
    });
  } else if (s.maxProperties !== undefined && s.maxProperties < 50) {
    const max = s.maxProperties;
    out.push({
      description: `${where} has more than maxProperties ${max} properties`,
      segments,
      change: (current) => {
        const grown = { ...(current as Record<string, unknown>) };
        for (let i = 1; Object.keys(grown).length <= max; i++) grown[`extraProperty${i}`] = 'x';
        return grown;
      },
    });
  }
  for (const [name, property] of Object.entries(properties)) {
    if (isReadOnly(property)) continue;
    collectMutations(property, record[name], [...segments, name], out, deps);
  }
}
