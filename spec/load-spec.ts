import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3 } from 'openapi-types';
import { specPath } from './spec-path.js';

/** A fully dereferenced OpenAPI 3.0 document: no `$ref` remains anywhere in it. */
export type OpenApiDocument = OpenAPIV3.Document;

const cache = new Map<string, Promise<OpenApiDocument>>();

/**
 * Loads, validates and dereferences an OpenAPI 3.0 description (the bundled contract by
 * default). The result is cached per path and deep-frozen: every part of apikit shares one
 * copy, and none may change it.
 *
 * @example
 * const doc = await loadSpec();
 * doc.info.version; // '1.0.0'
 */
export function loadSpec(path: string = specPath): Promise<OpenApiDocument> {
  let pending = cache.get(path);
  if (!pending) {
    pending = SwaggerParser.validate(path).then((api) => deepFreeze(api as OpenApiDocument));
    pending.catch(() => cache.delete(path));
    cache.set(path, pending);
  }
  return pending;
}

/**
 * The description as one document with internal `$ref`s kept (external files inlined):
 * what `/openapi.json` serves and `apikit spec bundle` prints.
 */
export async function bundleSpec(path: string = specPath): Promise<OpenAPIV3.Document> {
  return (await SwaggerParser.bundle(path)) as OpenAPIV3.Document;
}

function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if (value && typeof value === 'object' && !seen.has(value)) {
    seen.add(value);
    for (const child of Object.values(value)) deepFreeze(child, seen);
    Object.freeze(value);
  }
  return value;
}
