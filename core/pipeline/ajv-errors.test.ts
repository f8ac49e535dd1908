import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../spec/create-ajv.js';
import { toErrorEntries } from './ajv-errors.js';

const ajv = createAjv();
const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1 },
    status: { type: 'string', enum: ['A', 'B'] },
    age: { type: 'integer' },
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['q'],
        properties: { q: { type: 'integer', minimum: 1 } },
      },
    },
  },
};
const validate = ajv.compile(schema);

function entries(value: unknown, base = '#') {
  expect(validate(value)).toBe(false);
  return toErrorEntries(validate.errors, base);
}

describe('toErrorEntries', () => {
  it.each([
    {
      name: 'a missing property points at itself',
      value: {},
      expected: [{ pointer: '#/name', detail: 'is required' }],
    },
    {
      name: 'an unknown property points at itself',
      value: { name: 'a', extra: 1 },
      expected: [{ pointer: '#/extra', detail: 'is not a known property' }],
    },
    {
      name: 'an unknown property with / and ~ is escaped (RFC 6901)',
      value: { name: 'a', 'a/b~c': 1 },
      expected: [{ pointer: '#/a~1b~0c', detail: 'is not a known property' }],
    },
    {
      name: 'an enum lists the allowed values',
      value: { name: 'a', status: 'C' },
      expected: [{ pointer: '#/status', detail: 'must be one of "A", "B"' }],
    },
    {
      name: 'an integer type says so in plain words',
      value: { name: 'a', age: 1.5 },
      expected: [{ pointer: '#/age', detail: 'must be an integer' }],
    },
    {
      name: 'nested array items get their index',
      value: { name: 'a', items: [{ q: 1 }, { q: 0 }, {}] },
      expected: [
        { pointer: '#/items/1/q', detail: 'must be >= 1' },
        { pointer: '#/items/2/q', detail: 'is required' },
      ],
    },
  ])('$name', ({ value, expected }) => {
    expect(entries(value)).toEqual(expected);
  });

  it('reports every violation at once', () => {
    const pointers = entries({ name: '', status: 'C', age: 'x', extra: true }).map(
      (e) => e.pointer,
    );
    expect(pointers.sort()).toEqual(['#/age', '#/extra', '#/name', '#/status']);
  });

  it.each([
    { base: '#/query/size', expected: '#/query/size' },
    { base: '#/path/id', expected: '#/path/id' },
    { base: '#/header/Idempotency-Key', expected: '#/header/Idempotency-Key' },
  ])('puts a parameter error at its base $base', ({ base, expected }) => {
    const size = ajv.compile({ type: 'integer', maximum: 100 });
    expect(size(101)).toBe(false);
    expect(toErrorEntries(size.errors, base)).toEqual([
      { pointer: expected, detail: 'must be <= 100' },
    ]);
  });

  it('folds a fault ajv reports twice into one entry', () => {
    const error: ErrorObject = {
      instancePath: '/name',
      schemaPath: '#/properties/name/minLength',
      keyword: 'minLength',
      params: { limit: 1 },
      message: 'must NOT have fewer than 1 characters',
    };
    expect(toErrorEntries([error, { ...error }], '#')).toHaveLength(1);
  });

  it.each([
    { name: 'null', errors: null },
    { name: 'undefined', errors: undefined },
    { name: 'an empty list', errors: [] },
  ])('gives no entries for $name', ({ errors }) => {
    expect(toErrorEntries(errors, '#')).toEqual([]);
  });

  it('falls back to the keyword when ajv gives no message', () => {
    const error: ErrorObject = {
      instancePath: '',
      schemaPath: '#/x',
      keyword: 'custom',
      params: {},
    };
    expect(toErrorEntries([error], '#')).toEqual([{ pointer: '#', detail: 'violates custom' }]);
  });
});
