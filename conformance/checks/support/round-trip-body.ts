import { isDeepStrictEqual } from 'node:util';
import type { SpecOperation } from '../../../spec/operations.js';
import type { RunContext } from '../../run-context.js';
import {
  flag,
  isObject,
  itemSchema,
  properties,
  requestSchema,
  requiredOf,
  type Schema,
} from './stateful-support.js';

/** The properties a client may send: those of the request schema not marked readOnly. */
export function writableProperties(schema: Schema | undefined): Record<string, Schema> {
  return Object.fromEntries(
    Object.entries(properties(schema)).filter(([, p]) => !flag(p, 'readOnly')),
  );
}

/**
 * A full body for a PUT built from the current representation (a GET-modify-PUT round trip),
 * so that it is valid for this resource whatever the server's uniqueness rules: every
 * writable property the representation holds, and generated values for required ones it
 * does not. With `fillOptional`, optional properties the representation lacks (or holds as
 * null) get generated non-null values, so that a later reset can be seen.
 */
export function roundTripBody(
  ctx: RunContext,
  schema: Schema | undefined,
  representation: unknown,
  fillOptional: boolean,
): Record<string, unknown> {
  const current = isObject(representation) ? representation : {};
  const required = new Set(requiredOf(schema));
  const body: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(writableProperties(schema))) {
    const value = current[name];
    if (value !== undefined && value !== null) body[name] = structuredClone(value);
    else if (value === null && required.has(name) && flag(prop, 'nullable')) body[name] = null;
    else if (required.has(name) || fillOptional) {
      const generated = nonNull(ctx, prop);
      if (generated !== undefined) body[name] = generated;
    }
  }
  return body;
}

/** Only the required properties of a body. */
export function requiredOnly(
  schema: Schema | undefined,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const required = new Set(requiredOf(schema));
  return Object.fromEntries(Object.entries(body).filter(([k]) => required.has(k)));
}

/**
 * A writable property worth changing to see what else a write touches: a plain string (no
 * enum, no format such as email that may carry uniqueness) or else a plain integer, present in
 * the representation, with a new valid value different from the current one.
 */
export function changeableProperty(
  ctx: RunContext,
  schema: Schema | undefined,
  representation: unknown,
): { name: string; value: unknown } | undefined {
  const current = isObject(representation) ? representation : {};
  const entries = Object.entries(writableProperties(schema)).filter(
    ([name, p]) => name in current && !p.enum && !(p.allOf ?? []).length,
  );
  const ranked = [
    ...entries.filter(([, p]) => p.type === 'string' && !p.format),
    ...entries.filter(([, p]) => p.type === 'integer' || p.type === 'number'),
  ];
  for (const [name, prop] of ranked) {
    for (let i = 0; i < 5; i++) {
      const value = nonNull(ctx, prop);
      if (value !== undefined && !isDeepStrictEqual(value, current[name])) return { name, value };
    }
  }
  return undefined;
}

function nonNull(ctx: RunContext, schema: Schema): unknown {
  for (let i = 0; i < 5; i++) {
    const value = ctx.generate.value(schema);
    if (value !== null && value !== undefined) return value;
  }
  return undefined;
}

/**
 * A valid body for an operation: the generator's first positive body, with every
 * `format: email` string replaced by a fresh one (example emails are fixed, and emails are
 * often unique, so replaying an example would meet a 409 rather than the rule under test).
 */
export function validBody(ctx: RunContext, op: SpecOperation, index = 0): unknown {
  const bodies = ctx.generate.positiveBodies(op, index + 1);
  const body = bodies[Math.min(index, bodies.length - 1)];
  return freshen(ctx, body, requestSchema(op));
}

function freshen(ctx: RunContext, value: unknown, schema: Schema | undefined): unknown {
  if (!schema) return structuredClone(value);
  if (typeof value === 'string' && schema.format === 'email') return ctx.generate.value(schema);
  if (Array.isArray(value)) {
    return value.map((v) => freshen(ctx, v, itemSchema(schema)));
  }
  if (isObject(value)) {
    const props = properties(schema);
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, freshen(ctx, v, props[k])]),
    );
  }
  return value;
}
