import type { OpenAPIV3 } from 'openapi-types';
import type { Schema } from '../spec/schema/effective-schema.js';
import { createSchemaValidator } from '../spec/schema/schema-validator.js';
import { GenerationError, generateValue } from '../spec/schema/schema-values.js';
import type { SeededRandom } from '../spec/schema/seeded-random.js';
import type { SpecOperation } from '../spec/operations.js';

/** What a Prism-style `Prefer` header asks for. */
export interface Preference {
  code?: number;
  example?: string;
  dynamic?: boolean;
}

/**
 * Reads Prism's vocabulary from a `Prefer` header (`code=404, example=notFound`), so that
 * frontend tests switch scenarios the same way against Prism, the mocks, or the mock server.
 */
export function parsePrefer(header: string | null): Preference | undefined {
  if (!header) return undefined;
  const preference: Preference = {};
  for (const part of header.split(/[,;]/)) {
    const [key, value] = part.split('=').map((s) => s.trim());
    if (key === 'code' && /^\d{3}$/.test(value ?? '')) preference.code = Number(value);
    else if (key === 'example' && value) preference.example = value.replace(/^"|"$/g, '');
    else if (key === 'dynamic') preference.dynamic = value === 'true';
  }
  return Object.keys(preference).length ? preference : undefined;
}

/**
 * The spec's documented answer for a preference: its status, media type and example body;
 * with `dynamic=true`, a body generated from the response schema instead (read-only
 * properties included, write-only ones left out), drawn from `random`. A schema the generator
 * cannot satisfy (a pattern it cannot sample) falls back to the documented example.
 */
export function preferredAnswer(
  op: SpecOperation,
  preference: Preference,
  random?: SeededRandom,
): { status: number; contentType?: string; body?: unknown } | { error: string } {
  const status =
    preference.code ?? Number(Object.keys(op.responses).find((s) => s.startsWith('2')) ?? 200);
  const response = op.responses[String(status)];
  if (!response)
    return {
      error: `${op.operationId} documents no ${status} (documented: ${Object.keys(op.responses).join(', ')})`,
    };
  const [contentType, media] = Object.entries(response.content ?? {})[0] ?? [];
  if (!contentType || !media) return { status };
  const examples = (media.examples ?? {}) as Record<string, OpenAPIV3.ExampleObject>;
  if (preference.example) {
    const named = examples[preference.example];
    if (!named)
      return {
        error: `${op.operationId} ${status} has no example named ${preference.example} (has: ${Object.keys(examples).join(', ') || 'none'})`,
      };
    return { status, contentType, body: named.value };
  }
  if (preference.dynamic && random && media.schema) {
    const generated = generatedBody(media.schema as Schema, random);
    if (generated !== undefined) return { status, contentType, body: generated };
  }
  const body =
    media.example ??
    Object.values(examples)[0]?.value ??
    (media.schema as OpenAPIV3.SchemaObject | undefined)?.example;
  return { status, contentType, ...(body !== undefined ? { body } : {}) };
}

// One validator for every dynamic answer: its compiled schemas are cached per schema object.
let responseValidator: ReturnType<typeof createSchemaValidator> | undefined;

function generatedBody(schema: Schema, random: SeededRandom): unknown {
  responseValidator ??= createSchemaValidator('response');
  try {
    return generateValue(schema, random, 'random', responseValidator, 'response');
  } catch (error) {
    if (error instanceof GenerationError) return undefined;
    throw error;
  }
}
