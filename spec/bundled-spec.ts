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
  /**
   * The bundle as compact JSON (internal `$ref`s kept): what `/openapi.json` serves. Made on
   * the first call, not at the server's start, which seldom needs it (5 ms of the start).
   */
  json(): string;
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
 * response.end(json());
 */
export function loadBundledSpec(): Promise<BundledSpec> {
  cached ??= readFile(bundledSpecJsonPath, 'utf8').then((text) => {
    let compact: string | undefined;
    // The dereference resolves this parse in place: the compact JSON is made from the text.
    const spec = deepFreeze(dereferenceDocument(JSON.parse(text) as object, { inPlace: true }));
    return { spec, json: () => (compact ??= JSON.stringify(JSON.parse(text))) };
  });
  cached.catch(() => (cached = undefined));
  return cached;
}
