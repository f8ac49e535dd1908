import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../spec/operations.js';
import { asSchema, type Schema } from '../../spec/schema/effective-schema.js';

/** The JSON media type of an operation's request body, with its schema and examples. */
export interface JsonRequestBody {
  mediaType: string;
  media: OpenAPIV3.MediaTypeObject;
  schema: Schema;
  /** Whether the operation requires a body. */
  required: boolean;
}

/**
 * The request body the runner can send as JSON: `application/json` if declared, else the
 * first `…/json` or `…+json` media type; `undefined` when the operation takes no JSON body.
 */
export function jsonRequestBody(op: SpecOperation): JsonRequestBody | undefined {
  const content = op.requestBody?.content ?? {};
  const types = Object.keys(content);
  const mediaType =
    types.find((t) => t.toLowerCase().split(';')[0]?.trim() === 'application/json') ??
    types.find((t) => /^[^;]*[/+]json\s*(;|$)/i.test(t));
  if (mediaType === undefined) return undefined;
  const media = content[mediaType] as OpenAPIV3.MediaTypeObject;
  return {
    mediaType,
    media,
    schema: asSchema(media.schema),
    required: op.requestBody?.required === true,
  };
}

/** The examples of a body: the media type's `example`, its `examples`, the schema's `example`. */
export function bodyExamples(body: JsonRequestBody): unknown[] {
  const found: unknown[] = [];
  if (body.media.example !== undefined) found.push(body.media.example);
  for (const example of Object.values(body.media.examples ?? {})) {
    const value = (example as OpenAPIV3.ExampleObject).value;
    if (value !== undefined) found.push(value);
  }
  if (body.schema.example !== undefined) found.push(body.schema.example);
  return found;
}
