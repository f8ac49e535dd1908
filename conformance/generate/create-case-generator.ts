import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../spec/operations.js';
import type { CaseGenerator } from './case-generator.js';
import { asSchema } from '../../spec/schema/effective-schema.js';
import { jsonRequestBody } from './json-request-body.js';
import { negativeBodies } from './negative-bodies.js';
import { negativeParameters } from './negative-parameters.js';
import { completeBody, positiveBodies, type GeneratorDeps } from './positive-bodies.js';
import { positiveQueries } from './positive-queries.js';
import { GenerationError, generateValue } from '../../spec/schema/schema-values.js';
import { createSchemaValidator } from '../../spec/schema/schema-validator.js';
import type { SeededRandom } from '../../spec/schema/seeded-random.js';
import { createEmailSource, withUniqueEmails } from '../../spec/schema/unique-emails.js';

/**
 * The runner's request-data generator for any OpenAPI 3.0 description, reproducible from
 * the run's random source: each method draws from its own stream (forked per operation and
 * per call), so the data of one operation does not depend on which others ran before.
 * Email addresses (`format: email`) are unique for the generator's life and its seed:
 * `conform-<seed tag>-<n>@example.com`.
 *
 * @example
 * const generate = createCaseGenerator(seededRandom(42));
 * generate.positiveBodies(createUser, 5); // examples first, then generated; unique emails
 * generate.negativeCases(createUser); // [{ description: 'name is missing (required)', ... }]
 */
export function createCaseGenerator(
  random: SeededRandom,
  options: { runTag?: string } = {},
): CaseGenerator {
  const validator = createSchemaValidator();
  // The seed decides every value; `runTag` only keeps emails apart between runs of one seed
  // against a server that kept the first run's users (a reused email would be a 409).
  const tag =
    random.fork('emails').int(0, 0xffffffff).toString(16).padStart(8, '0') + (options.runTag ?? '');
  const emails = createEmailSource(tag);
  const calls = new Map<string, number>();
  const deps = (label: string): GeneratorDeps => {
    const n = calls.get(label) ?? 0;
    calls.set(label, n + 1);
    return { random: random.fork(`${label}#${n}`), validator, emails };
  };

  return {
    positiveBodies(op, count) {
      return positiveBodies(op, count, deps(`bodies:${op.operationId}`));
    },

    positiveQueries(op, count) {
      return positiveQueries(op, count, deps(`queries:${op.operationId}`));
    },

    value(schema: OpenAPIV3.SchemaObject) {
      const d = deps('value');
      const s = asSchema(schema);
      for (const [i, mode] of (['full', 'random', 'random', 'minimal'] as const).entries()) {
        try {
          const value = generateValue(s, d.random.fork(`${mode}:${i}`), mode, validator);
          if (validator.check(s, value) !== false) return withUniqueEmails(value, s, emails);
        } catch (error) {
          if (!(error instanceof GenerationError)) throw error;
        }
      }
      const fallback = [s.example, s.default].find((v) => v !== undefined);
      if (fallback !== undefined) return withUniqueEmails(fallback, s, emails);
      throw new Error('no valid value can be generated for this schema');
    },

    negativeCases(op: SpecOperation) {
      const d = deps(`negatives:${op.operationId}`);
      const body = jsonRequestBody(op);
      let validBody: (() => unknown) | undefined;
      if (body?.required) {
        const base = completeBody(body, d);
        if (base !== undefined) validBody = () => withUniqueEmails(base, body.schema, emails);
      }
      return [...negativeBodies(op, d), ...negativeParameters(op, d, validBody)];
    },
  };
}
