import SwaggerParser from '@apidevtools/swagger-parser';
import type { ValidateFunction } from 'ajv';
import type { OpenAPIV3 } from 'openapi-types';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAjv } from '../../spec/create-ajv.js';
import { listOperations, type SpecOperation } from '../../spec/operations.js';
import { createCaseGenerator } from './create-case-generator.js';
import { seededRandom } from '../../spec/schema/seeded-random.js';

/** An unrelated description: nullable, allOf, oneOf, enums, arrays, patterns, formats. */
const petStore = {
  openapi: '3.0.3',
  info: { title: 'Pet store', version: '2.1.0' },
  paths: {
    '/pets': {
      get: {
        operationId: 'findPets',
        parameters: [
          {
            name: 'limit',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
          },
          { name: 'species', in: 'query', schema: { $ref: '#/components/schemas/Species' } },
          {
            name: 'tags',
            in: 'query',
            style: 'form',
            explode: false,
            schema: {
              type: 'array',
              maxItems: 3,
              items: { type: 'string', pattern: '^[a-z]{3,8}$' },
            },
          },
          { name: 'vaccinated', in: 'query', schema: { type: 'boolean' } },
          { name: 'q', in: 'query', schema: { type: 'string', minLength: 2, maxLength: 20 } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string', maxLength: 16 } },
        ],
        responses: { '200': { description: 'Pets.' } },
      },
      post: {
        operationId: 'addPet',
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/NewPet' } },
          },
        },
        responses: { '201': { description: 'Created.' } },
      },
    },
    '/pets/{petId}': {
      parameters: [
        { name: 'petId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
      ],
      get: { operationId: 'getPet', responses: { '200': { description: 'A pet.' } } },
      patch: {
        operationId: 'updatePet',
        requestBody: {
          required: true,
          content: {
            'application/merge-patch+json': {
              schema: {
                type: 'object',
                minProperties: 1,
                properties: {
                  name: { $ref: '#/components/schemas/PetName' },
                  weight: { $ref: '#/components/schemas/Weight' },
                },
              },
            },
          },
        },
        responses: { '200': { description: 'Updated.' } },
      },
    },
    '/owners/{code}': {
      get: {
        operationId: 'getOwner',
        parameters: [
          {
            name: 'code',
            in: 'path',
            required: true,
            schema: { type: 'string', pattern: '^[A-Z]{3}-\\d{3}$' },
            example: 'ABC-123',
          },
        ],
        responses: { '200': { description: 'An owner.' } },
      },
    },
    '/uploads': {
      post: {
        operationId: 'upload',
        requestBody: {
          content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
        },
        responses: { '204': { description: 'Stored.' } },
      },
    },
  },
  components: {
    schemas: {
      Species: { type: 'string', enum: ['cat', 'dog', 'bird'] },
      PetName: {
        type: 'string',
        minLength: 2,
        maxLength: 30,
        pattern: '^[A-Z][a-z]+( [A-Z][a-z]+)*$',
      },
      Weight: {
        type: 'number',
        minimum: 0,
        exclusiveMinimum: true,
        maximum: 100,
        multipleOf: 0.5,
      },
      Owner: {
        type: 'object',
        additionalProperties: false,
        required: ['email'],
        properties: {
          email: { type: 'string', format: 'email', maxLength: 40 },
          phone: { type: 'string', pattern: '^\\+[1-9][0-9]{7,14}$' },
          since: { type: 'string', format: 'date' },
        },
      },
      Kibble: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'grams'],
        properties: {
          type: { type: 'string', enum: ['kibble'] },
          grams: { type: 'integer', minimum: 10, maximum: 500, multipleOf: 10 },
        },
      },
      Raw: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'meat'],
        properties: {
          type: { type: 'string', enum: ['raw'] },
          meat: { type: 'string', enum: ['beef', 'fish'] },
        },
      },
      NewPet: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'species', 'owner'],
        properties: {
          id: { type: 'integer', format: 'int64', readOnly: true },
          name: { $ref: '#/components/schemas/PetName' },
          species: { $ref: '#/components/schemas/Species' },
          tag: { type: 'string', nullable: true, maxLength: 10 },
          weight: { $ref: '#/components/schemas/Weight' },
          tags: {
            type: 'array',
            uniqueItems: true,
            maxItems: 4,
            items: { type: 'string', pattern: '^[a-z]{3,8}$' },
          },
          owner: { allOf: [{ $ref: '#/components/schemas/Owner' }], description: 'The owner.' },
          diet: {
            oneOf: [{ $ref: '#/components/schemas/Kibble' }, { $ref: '#/components/schemas/Raw' }],
          },
          // Lookahead is beyond the pattern generator: the example is used instead.
          chip: { type: 'string', pattern: '^(?=CHIP)[A-Z0-9]{8}$', example: 'CHIP1234' },
          website: { type: 'string', format: 'uri', nullable: true },
          microchipId: { type: 'string', format: 'uuid' },
          born: { type: 'string', format: 'date-time' },
          neutered: { type: 'boolean' },
        },
        example: { name: 'Tom', species: 'cat', owner: { email: 'jerry@example.com' } },
      },
    },
  },
};

/**
 * The project's ajv speaks JSON Schema draft-07, where `exclusiveMinimum` is a number; OpenAPI
 * 3.0 writes `minimum: 0, exclusiveMinimum: true`. Translated here for the test's own check.
 */
function toDraft07(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toDraft07);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = toDraft07(v);
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ]) {
    if (typeof out[exclusive as string] !== 'boolean') continue;
    if (out[exclusive as string] === true) {
      out[exclusive as string] = out[bound as string];
      delete out[bound as string];
    } else delete out[exclusive as string];
  }
  return out;
}

const ajv = createAjv();
const compiled = new Map<object, ValidateFunction>();
const validate = (schema: unknown, value: unknown) => {
  let fn = compiled.get(schema as object);
  if (!fn) compiled.set(schema as object, (fn = ajv.compile(toDraft07(schema) as object)));
  return fn(value);
};

let ops: SpecOperation[];
const op = (id: string) => ops.find((o) => o.operationId === id) as SpecOperation;
const schemaOf = (o: SpecOperation) =>
  Object.values(o.requestBody?.content ?? {})[0]?.schema as OpenAPIV3.SchemaObject;

beforeAll(async () => {
  const doc = (await SwaggerParser.dereference(structuredClone(petStore) as never)) as never;
  ops = listOperations(doc);
});

describe('a second, unrelated description', () => {
  it('makes valid bodies through allOf, oneOf, nullable, patterns and formats', () => {
    const generate = createCaseGenerator(seededRandom(11));
    const bodies = generate.positiveBodies(op('addPet'), 25) as Record<string, unknown>[];
    expect(bodies).toHaveLength(25);
    const diets = new Set<string>();
    for (const body of bodies) {
      expect(validate(schemaOf(op('addPet')), body), JSON.stringify(body)).toBe(true);
      expect(body).not.toHaveProperty('id');
      const owner = body.owner as { email: string };
      expect(owner.email.length).toBeLessThanOrEqual(40);
      if (body.chip !== undefined) expect(body.chip).toBe('CHIP1234');
      if (body.diet) diets.add((body.diet as { type: string }).type);
    }
    expect(bodies[0]).toMatchObject({ name: 'Tom', species: 'cat' });
    expect((bodies[0]?.owner as { email: string }).email).not.toBe('jerry@example.com');
    expect([...diets].sort()).toEqual(['kibble', 'raw']);
    expect(bodies.some((b) => b.tag === null)).toBe(true);
    expect(bodies.some((b) => b.weight === 100)).toBe(true);
    expect(bodies.some((b) => b.weight === 0.5)).toBe(true);

    const patches = generate.positiveBodies(op('updatePet'), 6);
    expect(patches.length).toBeGreaterThan(0);
    for (const p of patches) expect(validate(schemaOf(op('updatePet')), p)).toBe(true);
    expect(generate.positiveBodies(op('upload'), 5)).toEqual([]);
  });

  it('makes valid queries and values', () => {
    const generate = createCaseGenerator(seededRandom(12));
    const queries = generate.positiveQueries(op('findPets'), 40);
    // Every boundary value is sent, alone or together with other parameters' values.
    const sent = (name: string, value: unknown) => queries.some((q) => q[name] === value);
    expect(sent('limit', 1)).toBe(true);
    expect(sent('limit', 50)).toBe(true);
    expect(sent('species', 'bird')).toBe(true);
    expect(sent('vaccinated', false)).toBe(true);
    for (const q of queries) {
      for (const [name, value] of Object.entries(q)) {
        const p = op('findPets').parameters.find((x) => x.name === name);
        expect(validate(p?.schema, value), `${name}=${JSON.stringify(value)}`).toBe(true);
        if (name === 'tags') for (const t of value as string[]) expect(t).not.toContain(',');
      }
    }
    expect(queries.some((q) => Array.isArray(q.tags) && q.tags.length > 1)).toBe(true);
    expect(generate.positiveQueries(op('getPet'), 5)).toEqual([{}]);

    const weight = petStore.components.schemas.Weight as OpenAPIV3.SchemaObject;
    for (let i = 0; i < 20; i++) expect(validate(weight, generate.value(weight))).toBe(true);
  });

  it('breaks one rule at a time, wherever the description puts it', () => {
    const generate = createCaseGenerator(seededRandom(13));
    const cases = generate.negativeCases(op('addPet'));
    const schema = schemaOf(op('addPet'));
    for (const c of cases.filter(
      (x) => x.call.body !== undefined && x.call.contentType === undefined,
    )) {
      expect(validate(schema, c.call.body), c.description).toBe(false);
    }
    const pointers = new Set(cases.map((c) => c.pointer));
    for (const p of [
      '#/name',
      '#/species',
      '#/owner',
      '#/owner/email',
      '#/owner/unknownProperty',
      '#/weight',
      '#/tags',
      '#/diet/grams',
      '#/unknownProperty',
      '#',
      '#/header/Content-Type',
    ]) {
      expect(pointers, p).toContain(p);
    }
    expect(pointers).not.toContain('#/id');
    const tag = cases.filter((c) => c.pointer === '#/tag').map((c) => c.description);
    expect(tag.length).toBeGreaterThan(0);
    expect(tag.some((d) => d.includes('null'))).toBe(false); // nullable
    const descriptions = cases.map((c) => c.description).join('\n');
    expect(descriptions).toMatch(/name does not match pattern/);
    expect(descriptions).toMatch(/tags has a repeated item/);
    expect(descriptions).toMatch(/weight is not a multiple of 0.5/);
    expect(descriptions).toMatch(/weight is not above the exclusive minimum 0 \(0\)/);

    const query = generate.negativeCases(op('findPets'));
    const raw = (pointer: string) =>
      query.filter((c) => c.pointer === pointer).map((c) => c.call.rawQuery);
    expect(raw('#/query/limit')).toEqual(
      expect.arrayContaining(['limit=0', 'limit=51', 'limit=abc']),
    );
    expect(raw('#/query/vaccinated')).toEqual(['vaccinated=yes']);
    expect(raw('#/query/tags')).toContain('tags=unknownValue');
    expect(raw('#/query/q').length).toBe(2);
    expect(
      query.find((c) => c.pointer === '#/header/X-Trace')?.call.headers?.['X-Trace'],
    ).toHaveLength(17);

    const owner = generate.negativeCases(op('getOwner'));
    expect(owner.length).toBeGreaterThan(0);
    for (const c of owner) {
      expect(c.pointer).toBe('#/path/code');
      expect(/^[A-Z]{3}-\d{3}$/.test(String(c.call.path?.code))).toBe(false);
    }
    const pet = generate.negativeCases(op('getPet')).map((c) => c.call.path?.petId);
    expect(pet).toEqual(['0', '-1', 'abc', '1.5']);
    expect(generate.negativeCases(op('upload'))).toEqual([]);
  });

  it('terminates on recursive schemas', () => {
    const node: OpenAPIV3.SchemaObject = {
      type: 'object',
      required: ['name', 'children'],
      properties: { name: { type: 'string', minLength: 1 } },
    };
    (node.properties as Record<string, unknown>).children = { type: 'array', items: node };
    const value = createCaseGenerator(seededRandom(14)).value(node) as { name: string };
    expect(typeof value.name).toBe('string');
  });
});
