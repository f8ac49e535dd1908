import type { OpenAPIV3 } from 'openapi-types';

/**
 * An OpenAPI 3.0 Schema Object as the generator reads it: loosely typed, because descriptions
 * in the wild mix keywords freely (and `openapi-types` splits array and non-array schemas).
 */
export interface Schema {
  type?: string | string[];
  nullable?: boolean;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  readOnly?: boolean;
  writeOnly?: boolean;
  default?: unknown;
  example?: unknown;
  [keyword: string]: unknown;
}

/** Views an OpenAPI schema (or anything schema-shaped) as a generator `Schema`. */
export function asSchema(
  schema: OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject | Schema | undefined,
): Schema {
  return (schema ?? {}) as Schema;
}

const cache = new WeakMap<Schema, Schema>();

/**
 * The schema with its `allOf` merged into one (constraints intersected: the larger minimum,
 * the smaller maximum, the union of `required`, the intersection of `enum`, `false` for
 * `additionalProperties` if any part says so). Merging is one level deep: a property named
 * in several parts becomes an `allOf` of its own, merged when it is reached. `oneOf`/`anyOf`
 * stay for the caller to pick a branch. A schema without `allOf` is returned as is.
 *
 * @example
 * effectiveSchema({ allOf: [{ type: 'integer', minimum: 1 }, { maximum: 9 }] });
 * // { type: 'integer', minimum: 1, maximum: 9 }
 */
export function effectiveSchema(schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (!Array.isArray(schema.allOf)) return schema;
  const cached = cache.get(schema);
  if (cached) return cached;
  const { allOf, ...own } = schema;
  const merged = mergeSchemas([own, ...allOf.map((part) => effectiveSchema(part))]);
  cache.set(schema, merged);
  return merged;
}

/** Merges the parts of an `allOf` (each already without `allOf`). */
export function mergeSchemas(parts: Schema[]): Schema {
  const out: Schema = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (value === undefined || key === 'allOf' || key === 'nullable') continue;
      switch (key) {
        case 'properties': {
          const properties: Record<string, Schema> = { ...(out.properties ?? {}) };
          for (const [name, child] of Object.entries(value as Record<string, Schema>)) {
            const prior = properties[name];
            properties[name] = prior ? { allOf: [prior, child] } : child;
          }
          out.properties = properties;
          break;
        }
        case 'items':
          out.items = out.items ? { allOf: [out.items, value as Schema] } : (value as Schema);
          break;
        case 'required':
          out.required = [...new Set([...(out.required ?? []), ...(value as string[])])];
          break;
        case 'enum':
          out.enum = out.enum
            ? out.enum.filter((v) => (value as unknown[]).some((w) => sameJson(v, w)))
            : [...(value as unknown[])];
          break;
        case 'minimum':
        case 'maximum':
          mergeBound(out, part, key);
          break;
        case 'exclusiveMinimum':
        case 'exclusiveMaximum':
          if (typeof value === 'number') mergeNumericExclusive(out, key, value);
          break; // boolean forms travel with their minimum/maximum
        case 'minLength':
        case 'minItems':
        case 'minProperties':
          out[key] = Math.max((out[key] as number | undefined) ?? -Infinity, value as number);
          break;
        case 'maxLength':
        case 'maxItems':
        case 'maxProperties':
          out[key] = Math.min((out[key] as number | undefined) ?? Infinity, value as number);
          break;
        case 'additionalProperties':
          if (value === false || out.additionalProperties === undefined) {
            out.additionalProperties = value as boolean | Schema;
          }
          break;
        case 'readOnly':
        case 'writeOnly':
        case 'uniqueItems':
          out[key] = out[key] === true || value === true;
          break;
        default:
          if (out[key] === undefined) out[key] = value;
      }
    }
  }
  // `nullable` on the schema itself, or on every part that fixes a type.
  const own = parts[0];
  const typed = parts.filter((p) => p.type !== undefined);
  if (own?.nullable === true || (typed.length > 0 && typed.every((p) => p.nullable === true))) {
    out.nullable = true;
  }
  return out;
}

function mergeBound(out: Schema, part: Schema, key: 'minimum' | 'maximum'): void {
  const value = part[key] as number;
  const exclusiveKey = key === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum';
  const exclusive = part[exclusiveKey] === true;
  const current = out[key];
  const tighter =
    key === 'minimum' ? value > (current ?? -Infinity) : value < (current ?? Infinity);
  if (current === undefined || tighter) {
    out[key] = value;
    if (exclusive) out[exclusiveKey] = true;
    else if (typeof out[exclusiveKey] === 'boolean') delete out[exclusiveKey];
  } else if (value === current && exclusive) {
    out[exclusiveKey] = true;
  }
}

function mergeNumericExclusive(
  out: Schema,
  key: 'exclusiveMinimum' | 'exclusiveMaximum',
  value: number,
): void {
  const current = out[key];
  if (typeof current !== 'number') out[key] = value;
  else out[key] = key === 'exclusiveMinimum' ? Math.max(current, value) : Math.min(current, value);
}

/**
 * The JSON type a schema describes: its `type` (the first non-null one of a list), else what
 * its keywords imply, else `undefined` (any value).
 */
export function schemaType(schema: Schema): string | undefined {
  const { type } = schema;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null');
  if (schema.properties || schema.additionalProperties !== undefined) return 'object';
  if (schema.items) return 'array';
  if (schema.pattern !== undefined || schema.minLength !== undefined) return 'string';
  if (schema.maxLength !== undefined || schema.format === 'email') return 'string';
  if (schema.minimum !== undefined || schema.maximum !== undefined) return 'number';
  if (schema.enum && schema.enum.length > 0) {
    const first = schema.enum.find((v) => v !== null);
    if (typeof first === 'string') return 'string';
    if (typeof first === 'boolean') return 'boolean';
    if (typeof first === 'number') return Number.isInteger(first) ? 'integer' : 'number';
  }
  return undefined;
}

/** Whether a property is read-only (never sent in a request body). */
export function isReadOnly(schema: Schema | undefined): boolean {
  return effectiveSchema(schema).readOnly === true;
}

/** Whether a property is write-only (never sent in a response body). */
export function isWriteOnly(schema: Schema | undefined): boolean {
  return effectiveSchema(schema).writeOnly === true;
}

/**
 * Which way a body travels. OpenAPI 3.0 leaves read-only properties out of requests and
 * write-only properties out of responses, even when they are listed as required.
 */
export type Direction = 'request' | 'response';

/** Whether a property belongs in a body travelling in `direction`. */
export function travels(schema: Schema | undefined, direction: Direction): boolean {
  return direction === 'request' ? !isReadOnly(schema) : !isWriteOnly(schema);
}

/** Deep equality of JSON values (key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  return stableJson(a) === stableJson(b);
}

/** JSON text with object keys sorted: equal for equal JSON values. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
