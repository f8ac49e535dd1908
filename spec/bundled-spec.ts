import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deepFreeze } from './deep-freeze.js';
import { dereferenceDocument } from './dereference-document.js';
import type { OpenApiDocument } from './load-spec.js';
import { packageRoot } from './spec-path.js';

/** The committed bundle of `spec/openapi.yaml` (`npm run gen:types` writes it; a test keeps it current). */
export const bundledSpecJsonPath: string = join(packageRoot, 'spec', 'openapi.json');

/** The bundled contract, ready to serve. */
export interface BundledSpec {
  /** Dereferenced and deep-frozen, like `loadSpec()`'s. */
  spec: OpenApiDocument;
  /** The bundle as compact JSON (internal `$ref`s kept): what `/openapi.json` serves. */
  json: string;
}

let cached: Promise<BundledSpec> | undefined;

/**
 * The bundled contract from the precompiled `spec/openapi.json`, for the server's start: no
 * YAML parsing, no swagger-parser (its import, validation, dereferencing and bundling cost
 * most of a second). The description is validated where it is made (`apikit spec validate`,
 * the spec tests), and a test proves that this file is the current bundle of the YAML and
 * dereferences to the very document `loadSpec()` makes. Cached per process.
 *
 * @example
 * const { spec, json } = await loadBundledSpec();
 */
export function loadBundledSpec(): Promise<BundledSpec> {
  cached ??= readFile(bundledSpecJsonPath, 'utf8').then((text) => {
    const bundled = JSON.parse(text) as object;
    // Compact JSON first: the dereference then resolves this parse in place.
    const json = JSON.stringify(bundled);
    return { spec: deepFreeze(dereferenceDocument(bundled, { inPlace: true })), json };
  });
  cached.catch(() => (cached = undefined));
  return cached;
}
