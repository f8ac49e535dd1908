import type { OpenAPIV3 } from 'openapi-types';

/**
 * `cacheControl` of the root `x-apikit-http` (decision 0127): the Cache-Control policies of the
 * answers whose response declares no `Cache-Control` header of its own. A response that
 * declares one names its policies there (an `enum` of values); what no response declares
 * (the answers to writes) needs this. Read through `apikit-extensions.ts`, like every
 * `x-apikit-*`; a value of the wrong type counts as absent.
 */
export interface DeclaredCacheControl {
  /**
   * The policies, one Cache-Control value each, that a 2xx answer to a write (`POST`, `PUT`,
   * `PATCH`, `DELETE`) carries where its response declares no Cache-Control. Empty when not
   * declared: such answers are then not judged.
   */
  writes: string[];
}

/**
 * The Cache-Control policies a description declares in `x-apikit-http.cacheControl`; one
 * policy may be given as a string, several as a list.
 *
 * @example
 * // x-apikit-http: { cacheControl: { writes: 'private, no-cache' } }
 * declaredCacheControl(doc).writes; // ['private, no-cache']
 */
export function declaredCacheControl(doc: OpenAPIV3.Document): DeclaredCacheControl {
  const http: unknown = Reflect.get(doc, 'x-apikit-http');
  const declared = isObject(http) ? Reflect.get(http, 'cacheControl') : undefined;
  return { writes: isObject(declared) ? policies(Reflect.get(declared, 'writes')) : [] };
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function policies(value: unknown): string[] {
  const given = Array.isArray(value) ? value : [value];
  return given.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
}
