import type { SpecOperation } from '../../spec/operations.js';
import { referencesOf, uniqueFields } from '../../spec/apikit-extensions.js';
import {
  effectiveSchema,
  isReadOnly,
  stableJson,
  type Schema,
} from '../../spec/schema/effective-schema.js';
import { bodyExamples, jsonRequestBody, type JsonRequestBody } from './json-request-body.js';
import { GenerationError, generateValue, type ValueMode } from '../../spec/schema/schema-values.js';
import type { SchemaValidator } from '../../spec/schema/schema-validator.js';
import type { SeededRandom } from '../../spec/schema/seeded-random.js';
import { withUniqueEmails, type EmailSource } from '../../spec/schema/unique-emails.js';

/** What the generators share: a random stream, the validator and the unique emails. */
export interface GeneratorDeps {
  random: SeededRandom;
  validator: SchemaValidator;
  emails: EmailSource;
}

/** Bodies larger than this are not generated (servers commonly refuse 100 KiB and more). */
export const MAX_BODY_CHARS = 64 * 1024;

/** The generated bodies after the examples, in order; `random` ones follow. */
const FIXED_MODES: ValueMode[] = ['minimal', 'full', 'low', 'high', 'nulls'];

/**
 * Valid JSON request bodies of an operation, `count` at most: the examples (media type
 * `example`, `examples`, the schema's `example`), then generated ones (required properties
 * only, all properties, every bound at its minimum, at its maximum, nulls where nullable),
 * then seeded random ones. Every body validates against the schema and none repeats; every
 * `format: email` string is a fresh unique address. No JSON body: [].
 */
export function positiveBodies(op: SpecOperation, count: number, deps: GeneratorDeps): unknown[] {
  const body = jsonRequestBody(op);
  if (!body || count <= 0) return [];
  const referenced = exampleReferences(op, body);
  return validBodies(body, count, deps).map((v, i) =>
    withFreshUniqueFields(
      op,
      withUniqueEmails(isObject(v) ? { ...v, ...referenced } : v, body.schema, deps.emails),
      body.schema,
      deps,
      i,
    ),
  );
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The values the first example gives the fields the operation declares as references
 * (`x-apikit-references`): a generated id would name nothing the list holds, and a valid body
 * must name something (decision 0116).
 */
function exampleReferences(op: SpecOperation, body: JsonRequestBody): Record<string, unknown> {
  const example = bodyExamples(body).find(isObject);
  const fields = (referencesOf(op) ?? []).map((r) => r.field);
  return Object.fromEntries(
    fields.filter((f) => example?.[f] !== undefined).map((f) => [f, example![f]]),
  );
}

/**
 * The body with a freshly generated value for each top-level property the operation declares
 * unique (`x-apikit-unique`, an ISBN say), so that two creates do not collide the way two
 * copies of one example would (decision 0116). A value that cannot be made stays as it was.
 */
function withFreshUniqueFields(
  op: SpecOperation,
  value: unknown,
  schema: Schema,
  deps: GeneratorDeps,
  index: number,
): unknown {
  const fields = uniqueFields(op)?.fields ?? [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out = { ...(value as Record<string, unknown>) };
  for (const field of fields) {
    const property = effectiveSchema(schema).properties?.[field] as Schema | undefined;
    if (!(field in out) || !property || property.format === 'email') continue;
    try {
      const fresh = generateValue(
        property,
        deps.random.fork(`unique:${field}:${index}`),
        'random',
        deps.validator,
      );
      if (deps.validator.check(property, fresh) !== false) out[field] = fresh;
    } catch (error) {
      if (!(error instanceof GenerationError)) throw error;
    }
  }
  return out;
}

/** Valid bodies as `positiveBodies` orders them, with placeholder (not unique) emails. */
export function validBodies(body: JsonRequestBody, count: number, deps: GeneratorDeps): unknown[] {
  const out: unknown[] = [];
  const seen = new Set<string>();
  const add = (value: unknown) => {
    const key = stableJson(value);
    if (seen.has(key) || key.length > MAX_BODY_CHARS) return;
    if (deps.validator.check(body.schema, value) === false) return;
    seen.add(key);
    out.push(value);
  };
  const tryMode = (mode: ValueMode, label: string) => {
    try {
      add(generateValue(body.schema, deps.random.fork(label), mode, deps.validator));
    } catch (error) {
      if (!(error instanceof GenerationError)) throw error;
    }
  };
  for (const example of bodyExamples(body)) {
    if (out.length >= count) return out;
    add(structuredClone(example));
  }
  for (const mode of FIXED_MODES) {
    if (out.length >= count) return out;
    if (mode === 'nulls' && !hasNullable(body.schema)) continue;
    tryMode(mode, mode);
  }
  for (let i = 0; out.length < count && i < count * 3 + 5; i++) tryMode('random', `random:${i}`);
  return out;
}

/** Whether anything in the schema (outside read-only properties) is nullable. */
function hasNullable(schema: Schema, seen = new Set<Schema>()): boolean {
  if (seen.has(schema) || seen.size > 500) return false;
  seen.add(schema);
  if (schema.nullable === true) return true;
  const children = [
    ...Object.values(schema.properties ?? {}).filter((p) => !isReadOnly(p)),
    ...(schema.items ? [schema.items] : []),
    ...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : []),
    ...(schema.allOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.anyOf ?? []),
  ];
  return children.some((child) => hasNullable(child, seen));
}

/**
 * One valid body with every writable property present (the start of every negative body),
 * else any valid body; `undefined` when none can be made.
 */
export function completeBody(body: JsonRequestBody, deps: GeneratorDeps): unknown {
  for (const mode of ['full', 'random', 'minimal'] as const) {
    for (let i = 0; i < 3; i++) {
      try {
        const value = generateValue(
          body.schema,
          deps.random.fork(`base:${mode}:${i}`),
          mode,
          deps.validator,
        );
        if (deps.validator.check(body.schema, value) !== false) return value;
      } catch (error) {
        if (!(error instanceof GenerationError)) throw error;
      }
      if (mode !== 'random') break;
    }
  }
  return bodyExamples(body).find((v) => deps.validator.check(body.schema, v) !== false);
}
