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

/** What the walk of one description has found so far, and what it has visited. */
interface Collector {
  found: SpecExample[];
  seen: Set<object>;
}

/** Parameters, headers and media types all carry `schema` + `example` + `examples`. */
type ExampleHolder = { schema?: unknown; example?: unknown; examples?: unknown };

/**
 * Every example of a dereferenced description: on schemas (at any depth), parameters, headers,
 * request bodies and responses (`example` and each entry of `examples`).
 */
export function collectExamples(doc: OpenApiDocument): SpecExample[] {
  const c: Collector = { found: [], seen: new Set() };
  fromComponents(c, doc.components ?? {});
  fromPaths(c, doc.paths ?? {});
  return c.found;
}

function fromComponents(c: Collector, components: OpenAPIV3.ComponentsObject): void {
  for (const [name, schema] of Object.entries(components.schemas ?? {})) {
    fromSchema(c, schema as Schema, ['components', 'schemas', name]);
  }
  for (const [name, parameter] of Object.entries(components.parameters ?? {})) {
    fromHolder(c, parameter as OpenAPIV3.ParameterObject, ['components', 'parameters', name]);
  }
  for (const [name, header] of Object.entries(components.headers ?? {})) {
    fromHolder(c, header as OpenAPIV3.HeaderObject, ['components', 'headers', name]);
  }
  for (const [name, body] of Object.entries(components.requestBodies ?? {})) {
    const at = ['components', 'requestBodies', name];
    fromContent(c, (body as OpenAPIV3.RequestBodyObject).content, at);
  }
  for (const [name, response] of Object.entries(components.responses ?? {})) {
    fromResponse(c, response as OpenAPIV3.ResponseObject, ['components', 'responses', name]);
  }
}

function fromPaths(c: Collector, paths: OpenAPIV3.PathsObject): void {
  for (const [path, item] of Object.entries(paths)) {
    if (!item) continue;
    item.parameters?.forEach((p, i) =>
      fromHolder(c, p as OpenAPIV3.ParameterObject, ['paths', path, 'parameters', i]),
    );
    for (const [method, value] of Object.entries(item)) {
      if (!value || typeof value !== 'object' || !('responses' in value)) continue;
      fromOperation(c, value as OpenAPIV3.OperationObject, ['paths', path, method]);
    }
  }
}

function fromOperation(c: Collector, operation: OpenAPIV3.OperationObject, at: Segments): void {
  operation.parameters?.forEach((p, i) =>
    fromHolder(c, p as OpenAPIV3.ParameterObject, [...at, 'parameters', i]),
  );
  const body = operation.requestBody as OpenAPIV3.RequestBodyObject | undefined;
  fromContent(c, body?.content, [...at, 'requestBody']);
  for (const [status, response] of Object.entries(operation.responses)) {
    fromResponse(c, response as OpenAPIV3.ResponseObject, [...at, 'responses', status]);
  }
}

function fromResponse(c: Collector, response: OpenAPIV3.ResponseObject, at: Segments): void {
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    fromHolder(c, header as OpenAPIV3.HeaderObject, [...at, 'headers', name]);
  }
  fromContent(c, response.content, at);
}

function fromContent(
  c: Collector,
  content: Record<string, OpenAPIV3.MediaTypeObject> | undefined,
  at: Segments,
): void {
  for (const [type, media] of Object.entries(content ?? {})) {
    fromHolder(c, media, [...at, 'content', type]);
  }
}

function fromHolder(c: Collector, holder: ExampleHolder | undefined, at: Segments): void {
  if (!holder || c.seen.has(holder)) return;
  c.seen.add(holder);
  const schema = holder.schema as Schema | undefined;
  fromSchema(c, schema, [...at, 'schema']);
  if (!schema) return;
  if (holder.example !== undefined) {
    c.found.push({ pointer: jsonPointer([...at, 'example']), schema, value: holder.example });
  }
  const examples = (holder.examples ?? {}) as Record<string, OpenAPIV3.ExampleObject>;
  for (const [name, example] of Object.entries(examples)) {
    if (example.value === undefined) continue;
    c.found.push({
      pointer: jsonPointer([...at, 'examples', name, 'value']),
      schema,
      value: example.value,
    });
  }
}

function fromSchema(c: Collector, schema: Schema | undefined, at: Segments): void {
  if (!schema || c.seen.has(schema)) return;
  c.seen.add(schema);
  if (schema.example !== undefined) {
    c.found.push({ pointer: jsonPointer([...at, 'example']), schema, value: schema.example });
  }
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    fromSchema(c, child as Schema, [...at, 'properties', name]);
  }
  if ('items' in schema) fromSchema(c, schema.items as Schema, [...at, 'items']);
  if (typeof schema.additionalProperties === 'object') {
    fromSchema(c, schema.additionalProperties as Schema, [...at, 'additionalProperties']);
  }
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    schema[key]?.forEach((child, i) => fromSchema(c, child as Schema, [...at, key, i]));
  }
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
