import { effectiveSchema, schemaType, type Direction, type Schema } from './effective-schema.js';
import { generateArray } from './generate-array.js';
import { generateNumber } from './generate-number.js';
import { generateObject } from './generate-object.js';
import { generateString } from './generate-string.js';
import { GenerationError } from './generation-error.js';
import type { SchemaValidator } from './schema-validator.js';
import type { SeededRandom } from './seeded-random.js';
import type { ValueContext, ValueMode } from './value-context.js';

export { GenerationError } from './generation-error.js';
export type { ValueMode } from './value-context.js';

const MAX_DEPTH = 24;

/**
 * A valid value for a schema. By default the value is a request body: read-only properties
 * are never generated. With `direction: 'response'` (the mocks' `Prefer: dynamic=true`),
 * read-only properties are generated and write-only ones left out; pass a validator made for
 * the same direction. Emails are the placeholder address sized to the constraints (see
 * `withUniqueEmails`).
 *
 * @throws GenerationError when the schema admits nothing the generator can make.
 */
export function generateValue(
  schema: Schema,
  random: SeededRandom,
  mode: ValueMode,
  validator: SchemaValidator,
  direction: Direction = 'request',
): unknown {
  return generate(schema, { random, mode, validator, direction }, 0);
}

function generate(raw: Schema, ctx: ValueContext, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new GenerationError('the schema nests too deep');
  const s = effectiveSchema(raw);
  if (s.oneOf || s.anyOf) return generateBranch(raw, s, ctx, depth);
  const nullAllowed = s.nullable === true && (!s.enum || s.enum.includes(null));
  if (nullAllowed && depth > 0) {
    if (ctx.mode === 'nulls') return null;
    if (ctx.mode === 'random' && ctx.random.next() < 0.1) return null;
  }
  if (s.enum) return pickEnum(s, ctx);
  const type = schemaType(s);
  if (type !== 'object' && type !== 'array') {
    const example = preferredExample(s, ctx);
    if (example !== undefined) return example;
  }
  switch (type) {
    case 'string':
      return generateString(s, ctx);
    case 'integer':
      return generateNumber(s, ctx, true);
    case 'number':
      return generateNumber(s, ctx, false);
    case 'boolean':
      return ctx.mode === 'low' ? false : ctx.mode === 'high' ? true : ctx.random.next() < 0.5;
    case 'array':
      return generateArray(s, ctx, depth, generate);
    case 'object':
      return generateObject(s, ctx, depth, generate);
    default:
      return typeof s.default === 'string' ? s.default : 'value';
  }
}

/** The schema's example (or default) for typical values, when it is valid. */
function preferredExample(s: Schema, ctx: ValueContext): unknown {
  const typical = ctx.mode === 'minimal' || ctx.mode === 'full' || ctx.mode === 'nulls';
  const sometimes = ctx.mode === 'random' && ctx.random.next() < 0.25;
  if (!typical && !sometimes) return undefined;
  for (const candidate of [s.example, s.default]) {
    if (candidate === undefined || candidate === null) continue;
    if (s.format === 'email') continue; // emails are made unique, examples are not
    if (ctx.validator.check(s, candidate) !== false) return structuredClone(candidate);
  }
  return undefined;
}

function pickEnum(s: Schema, ctx: ValueContext): unknown {
  const values: unknown[] = (s.enum ?? []).filter((v) => v !== null);
  if (values.length === 0) {
    if (s.nullable) return null;
    throw new GenerationError('empty enum');
  }
  if (ctx.mode === 'low') return values[0];
  if (ctx.mode === 'high') return values[values.length - 1];
  if (ctx.mode !== 'random' && s.example !== undefined && values.includes(s.example)) {
    return s.example;
  }
  return structuredClone(ctx.random.pick(values));
}

function generateBranch(raw: Schema, s: Schema, ctx: ValueContext, depth: number): unknown {
  const key = s.oneOf ? 'oneOf' : 'anyOf';
  const branches = [...(s[key] ?? [])];
  const rest: Schema = { ...s };
  delete rest[key];
  if (ctx.mode === 'high') branches.reverse();
  else if (ctx.mode !== 'low') shuffle(branches, ctx.random);
  if (s.nullable && ctx.mode === 'nulls' && depth > 0) return null;
  for (const branch of branches) {
    const merged = effectiveSchema({ allOf: [rest, branch] });
    let value: unknown;
    try {
      value = generate(merged, ctx, depth + 1);
    } catch (error) {
      if (error instanceof GenerationError) continue;
      throw error;
    }
    if (ctx.validator.check(raw, value) !== false) return value;
  }
  throw new GenerationError(`no ${key} branch could be generated`);
}

function shuffle<T>(items: T[], random: SeededRandom): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
}
