import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import type { Schema } from '../spec/schema/effective-schema.js';
import { createSchemaValidator } from '../spec/schema/schema-validator.js';
import { generateValue } from '../spec/schema/schema-values.js';
import { seededRandom } from '../spec/schema/seeded-random.js';
import { listOperations } from '../spec/operations.js';
import { ResponseValidator } from '../spec/response-validator.js';
import { mockSpec } from './mock-context.js';
import { parsePrefer, preferredAnswer } from './prefer-header.js';

const spec = mockSpec();
const operations = listOperations(spec);
const validator = new ResponseValidator(spec);

/** Every documented (operation, status) whose answer has a JSON body schema. */
const withSchemas = operations.flatMap((op) =>
  Object.entries(op.responses)
    .filter(([status, response]) => {
      const media = Object.values((response as OpenAPIV3.ResponseObject).content ?? {})[0];
      return /^\d{3}$/.test(status) && media?.schema !== undefined;
    })
    .map(([status]) => ({ op, status: Number(status) })),
);

describe('parsePrefer', () => {
  it('reads code, example and dynamic in Prism’s syntax', () => {
    expect(parsePrefer('code=404, example="notFound"')).toEqual({
      code: 404,
      example: 'notFound',
    });
    expect(parsePrefer('dynamic=true')).toEqual({ dynamic: true });
    expect(parsePrefer('respond-async')).toBeUndefined();
    expect(parsePrefer(null)).toBeUndefined();
  });
});

describe('preferredAnswer with dynamic=true', () => {
  it(`generates a body valid against the spec for all ${withSchemas.length} documented JSON answers`, () => {
    expect(withSchemas.length).toBeGreaterThan(50);
    const random = seededRandom(7);
    const failures: string[] = [];
    for (const { op, status } of withSchemas) {
      for (let draw = 0; draw < 3; draw++) {
        const answer = preferredAnswer(op, { code: status, dynamic: true }, random);
        if ('error' in answer) {
          failures.push(`${op.operationId} ${status}: ${answer.error}`);
          continue;
        }
        const violations = validator.validate(op.operationId, {
          method: op.method,
          status,
          headers: new Headers({ 'Content-Type': answer.contentType ?? '' }),
          body: JSON.stringify(answer.body),
        });
        const bodyViolations = violations.filter((v) => v.kind !== 'header');
        if (bodyViolations.length) {
          failures.push(`${op.operationId} ${status}: ${bodyViolations[0]!.message}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('generates every one of them, never falling back to the example', () => {
    const generator = createSchemaValidator('response');
    const random = seededRandom(5);
    const refused = withSchemas.filter(({ op, status }) => {
      const response = op.responses[String(status)] as OpenAPIV3.ResponseObject;
      const schema = Object.values(response.content ?? {})[0]!.schema as Schema;
      try {
        generateValue(schema, random, 'random', generator, 'response');
        return false;
      } catch {
        return true;
      }
    });
    expect(refused.map(({ op, status }) => `${op.operationId} ${status}`)).toEqual([]);
  });

  it('includes read-only properties (a response carries the id) and varies between draws', () => {
    const getUser = operations.find((op) => op.operationId === 'getUser')!;
    const random = seededRandom(11);
    const first = preferredAnswer(getUser, { dynamic: true }, random) as { body: { id: number } };
    const second = preferredAnswer(getUser, { dynamic: true }, random) as { body: { id: number } };
    expect(typeof first.body.id).toBe('number');
    expect(second.body).not.toEqual(first.body);
    const example = preferredAnswer(getUser, {}) as { body: unknown };
    expect(first.body).not.toEqual(example.body);
  });

  it('is reproducible: the same seed draws the same bodies', () => {
    const listUsers = operations.find((op) => op.operationId === 'listUsers')!;
    const draw = () => preferredAnswer(listUsers, { dynamic: true }, seededRandom(3));
    expect(draw()).toEqual(draw());
  });

  it('without a random source answers the documented example', () => {
    const getUser = operations.find((op) => op.operationId === 'getUser')!;
    expect(preferredAnswer(getUser, { dynamic: true })).toEqual(preferredAnswer(getUser, {}));
  });
});
