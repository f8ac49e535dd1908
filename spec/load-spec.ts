import type { OpenAPIV3 } from 'openapi-types';
import { deepFreeze } from './deep-freeze.js';
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
    pending = swaggerParser()
      .then((parser) => parser.validate(path))
      .then((api) => deepFreeze(api as OpenApiDocument));
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
  return (await (await swaggerParser()).bundle(path)) as OpenAPIV3.Document;
}

/**
 * swagger-parser, imported on first use: it is heavy, and the server starts from the
 * precompiled bundle (`loadBundledSpec`) without it.
 */
async function swaggerParser() {
  return (await import('@apidevtools/swagger-parser')).default;
}
