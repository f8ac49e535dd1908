import type { OpenAPIV3 } from 'openapi-types';
import type { OpenApiDocument } from './load-spec.js';
import { createAjv } from './create-ajv.js';
import { jsonPointer } from './json-pointer.js';

type Schema = OpenAPIV3.SchemaObject;
type Segments = (string | number)[];

/** One example in a description, with the schema it must satisfy. */
export interface SpecExample {
  /** JSON Pointer of the example in the description (its first place when shared). */
  pointer: string;
  schema: Schema;
  value: unknown;
}

/** An example that does not satisfy its schema. */
export interface ExampleViolation {
  pointer: string;
  message: string;
}

/**
 * Every example of a dereferenced description: on schemas (at any depth), parameters, headers,
 * request bodies and responses (`example` and each entry of `examples`).
 */
export function collectExamples(doc: OpenApiDocument): SpecExample[] {
  const found: SpecExample[] = [];
  const seen = new Set<object>();

  const fromSchema = (schema: Schema | undefined, at: Segments): void => {
    if (!schema || seen.has(schema)) return;
    seen.add(schema);
    if (schema.example !== undefined) {
      found.push({ pointer: jsonPointer([...at, 'example']), schema, value: schema.example });
    }
    for (const [name, child] of Object.entries(schema.properties ?? {})) {
      fromSchema(child as Schema, [...at, 'properties', name]);
    }
    if ('items' in schema) fromSchema(schema.items as Schema, [...at, 'items']);
    if (typeof schema.additionalProperties === 'object') {
      fromSchema(schema.additionalProperties as Schema, [...at, 'additionalProperties']);
    }
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
      schema[key]?.forEach((child, i) => fromSchema(child as Schema, [...at, key, i]));
    }
  };

  // Parameters, headers and media types all carry `schema` + `example` + `examples`.
  const fromHolder = (
    holder: { schema?: unknown; example?: unknown; examples?: unknown } | undefined,
    at: Segments,
  ): void => {
    if (!holder || seen.has(holder)) return;
    seen.add(holder);
    const schema = holder.schema as Schema | undefined;
    fromSchema(schema, [...at, 'schema']);
    if (!schema) return;
    if (holder.example !== undefined) {
      found.push({ pointer: jsonPointer([...at, 'example']), schema, value: holder.example });
    }
    const examples = (holder.examples ?? {}) as Record<string, OpenAPIV3.ExampleObject>;
    for (const [name, example] of Object.entries(examples)) {
      if (example.value === undefined) continue;
      found.push({
        pointer: jsonPointer([...at, 'examples', name, 'value']),
        schema,
        value: example.value,
      });
    }
  };

  const fromContent = (
    content: Record<string, OpenAPIV3.MediaTypeObject> | undefined,
    at: Segments,
  ) => {
    for (const [type, media] of Object.entries(content ?? {})) {
      fromHolder(media, [...at, 'content', type]);
    }
  };

  const fromResponse = (response: OpenAPIV3.ResponseObject, at: Segments) => {
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      fromHolder(header as OpenAPIV3.HeaderObject, [...at, 'headers', name]);
    }
    fromContent(response.content, at);
  };

  const components = doc.components ?? {};
  for (const [name, schema] of Object.entries(components.schemas ?? {})) {
    fromSchema(schema as Schema, ['components', 'schemas', name]);
  }
  for (const [name, parameter] of Object.entries(components.parameters ?? {})) {
    fromHolder(parameter as OpenAPIV3.ParameterObject, ['components', 'parameters', name]);
  }
  for (const [name, header] of Object.entries(components.headers ?? {})) {
    fromHolder(header as OpenAPIV3.HeaderObject, ['components', 'headers', name]);
  }
  for (const [name, body] of Object.entries(components.requestBodies ?? {})) {
    fromContent((body as OpenAPIV3.RequestBodyObject).content, [
      'components',
      'requestBodies',
      name,
    ]);
  }
  for (const [name, response] of Object.entries(components.responses ?? {})) {
    fromResponse(response as OpenAPIV3.ResponseObject, ['components', 'responses', name]);
  }
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!item) continue;
    item.parameters?.forEach((p, i) =>
      fromHolder(p as OpenAPIV3.ParameterObject, ['paths', path, 'parameters', i]),
    );
    for (const [method, value] of Object.entries(item)) {
      if (!value || typeof value !== 'object' || !('responses' in value)) continue;
      const operation = value as OpenAPIV3.OperationObject;
      const at = ['paths', path, method];
      operation.parameters?.forEach((p, i) =>
        fromHolder(p as OpenAPIV3.ParameterObject, [...at, 'parameters', i]),
      );
      fromContent((operation.requestBody as OpenAPIV3.RequestBodyObject)?.content, [
        ...at,
        'requestBody',
      ]);
      for (const [status, response] of Object.entries(operation.responses)) {
        fromResponse(response as OpenAPIV3.ResponseObject, [...at, 'responses', status]);
      }
    }
  }
  return found;
}

/**
 * Validates every example of a dereferenced description against its schema and returns the
 * violations (all of them, not just the first).
 */
export function findInvalidExamples(doc: OpenApiDocument): ExampleViolation[] {
  const ajv = createAjv();
  const violations: ExampleViolation[] = [];
  for (const example of collectExamples(doc)) {
    const validate = ajv.compile(example.schema);
    if (validate(example.value)) continue;
    for (const error of validate.errors ?? []) {
      violations.push({
        pointer: example.pointer,
        message: `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`,
      });
    }
  }
  return violations;
}
