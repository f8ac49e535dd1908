import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { createAjv } from '../create-ajv.js';
import type { Direction, Schema } from './effective-schema.js';

/** Checks generated values against the schemas they were made for. */
export interface SchemaValidator {
  /** true or false; `undefined` when the schema cannot be compiled (nothing is checked then). */
  check(schema: Schema, value: unknown): boolean | undefined;
  /** ajv's errors for an invalid value; [] when valid, `undefined` when not compiled. */
  errors(schema: Schema, value: unknown): ErrorObject[] | undefined;
}

// Validation is pure: every generator shares one ajv and its compiled schemas.
let shared: Ajv | undefined;
const compiledFor: Record<Direction, WeakMap<Schema, ValidateFunction | null>> = {
  request: new WeakMap(),
  response: new WeakMap(),
};

/**
 * A validator built on the project's ajv factory, lenient about the schemas themselves
 * (unknown keywords and formats of other descriptions do not stop it) and judging them as a
 * body travelling in `direction` sees them: a read-only property is never required in a
 * request, a write-only one never in a response (OpenAPI 3.0), and `nullable: true` without a
 * `type` (common beside `allOf`) admits null.
 *
 * @example
 * const validator = createSchemaValidator();
 * validator.check({ type: 'integer', minimum: 1 }, 0); // false
 */
export function createSchemaValidator(direction: Direction = 'request'): SchemaValidator {
  shared ??= createAjv({ strict: false, logger: false, allErrors: true });
  const ajv = shared;
  const compiled = compiledFor[direction];
  const compile = (schema: Schema): ValidateFunction | undefined => {
    let fn = compiled.get(schema);
    if (fn === undefined) {
      try {
        fn = isCyclic(schema) ? null : ajv.compile(directionView(schema, direction));
      } catch {
        fn = null; // unsupported: the generator's own rules are all there is
      }
      compiled.set(schema, fn);
    }
    return fn ?? undefined;
  };
  return {
    check(schema, value) {
      const fn = compile(schema);
      return fn ? fn(value) : undefined;
    },
    errors(schema, value) {
      const fn = compile(schema);
      if (!fn) return undefined;
      return fn(value) ? [] : [...(fn.errors ?? [])];
    },
  };
}

/**
 * A copy of a schema as a body travelling in `direction` must satisfy it, in the JSON Schema
 * draft ajv speaks: read-only (request) or write-only (response) properties dropped from
 * `required`, `nullable` without `type` turned into an explicit alternative of null, and
 * OpenAPI 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum` turned into the numeric form.
 */
export function directionView(
  schema: Schema,
  direction: Direction,
  seen = new Map<Schema, Schema>(),
): Schema {
  const known = seen.get(schema);
  if (known) return known;
  const copy: Schema = { ...schema };
  if (copy.nullable === true && copy.type === undefined) {
    delete copy.nullable;
    seen.set(schema, { anyOf: [copy, { enum: [null] }] });
  } else {
    seen.set(schema, copy);
  }
  const child = (s: Schema): Schema => directionView(s, direction, seen);
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (typeof copy[exclusive] !== 'boolean') continue;
    if (copy[exclusive] === true && typeof copy[bound] === 'number') {
      copy[exclusive] = copy[bound];
      delete copy[bound];
    } else {
      delete copy[exclusive];
    }
  }
  if (schema.properties) {
    copy.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, s]) => [name, child(s)]),
    );
    if (schema.required) {
      copy.required = schema.required.filter((name) => {
        const property = schema.properties?.[name];
        return !(property && leftOutDeep(property, direction));
      });
    }
  }
  if (schema.items && typeof schema.items === 'object') copy.items = child(schema.items);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    copy.additionalProperties = child(schema.additionalProperties);
  }
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) copy[key] = list.map(child);
  }
  if (schema.not && typeof schema.not === 'object') copy.not = child(schema.not as Schema);
  return seen.get(schema) as Schema;
}

function leftOutDeep(schema: Schema, direction: Direction): boolean {
  const key = direction === 'request' ? 'readOnly' : 'writeOnly';
  return schema[key] === true || (schema.allOf ?? []).some((s) => s[key] === true);
}

/** Whether a (dereferenced) schema contains itself, which ajv cannot compile. */
export function isCyclic(
  schema: unknown,
  path = new Set<unknown>(),
  done = new Set<unknown>(),
): boolean {
  if (!schema || typeof schema !== 'object' || done.has(schema)) return false;
  if (path.has(schema)) return true;
  path.add(schema);
  for (const child of Object.values(schema)) {
    if (isCyclic(child, path, done)) return true;
  }
  path.delete(schema);
  done.add(schema);
  return false;
}
