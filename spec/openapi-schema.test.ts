import { describe, expect, it } from 'vitest';
import { createAjv } from './create-ajv.js';
import { toJsonSchema } from './openapi-schema.js';

describe('OpenAPI 3.0 schemas through createAjv', () => {
  it.each([
    [
      'exclusiveMinimum: true',
      { type: 'number', minimum: 0, exclusiveMinimum: true },
      [0.1],
      [0, -1],
    ],
    ['exclusiveMaximum: true', { type: 'integer', maximum: 10, exclusiveMaximum: true }, [9], [10]],
    [
      'exclusiveMinimum: false',
      { type: 'number', minimum: 0, exclusiveMinimum: false },
      [0],
      [-0.1],
    ],
    [
      'nested in properties',
      { type: 'object', properties: { p: { type: 'number', minimum: 1, exclusiveMinimum: true } } },
      [{ p: 2 }],
      [{ p: 1 }],
    ],
    ['nullable', { type: 'integer', minimum: 18, nullable: true }, [null, 18], [17]],
  ])('%s', (_name, schema, valid, invalid) => {
    const validate = createAjv().compile(schema);
    for (const v of valid) expect(validate(v), JSON.stringify(v)).toBe(true);
    for (const v of invalid) expect(validate(v), JSON.stringify(v)).toBe(false);
  });

  it('returns the very same object when nothing needs translating, and one cached copy otherwise', () => {
    const plain = { type: 'object', properties: { a: { type: 'string' } } };
    expect(toJsonSchema(plain)).toBe(plain);
    const open = { type: 'number', minimum: 1, exclusiveMinimum: true };
    expect(toJsonSchema(open)).toBe(toJsonSchema(open));
    expect(open).toEqual({ type: 'number', minimum: 1, exclusiveMinimum: true });
  });

  it('survives recursive schemas', () => {
    const node: Record<string, unknown> = { type: 'object', properties: {} };
    (node.properties as Record<string, unknown>).child = node;
    expect(() => toJsonSchema(node)).not.toThrow();
  });
});
