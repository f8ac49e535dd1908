import type { OpenAPIV3 } from 'openapi-types';
import { isCommaSeparated } from './parameter-values.js';

/** `name=value` as `buildRequest` would send it (arrays per style and explode). */
export function serializeQuery(
  p: OpenAPIV3.ParameterObject | undefined,
  name: string,
  value: unknown,
): string {
  const key = encodeURIComponent(name);
  if (!Array.isArray(value)) return `${key}=${encodeURIComponent(String(value))}`;
  if (p && isCommaSeparated(p)) {
    return `${key}=${value.map((v) => encodeURIComponent(String(v))).join(',')}`;
  }
  return value.map((v) => `${key}=${encodeURIComponent(String(v))}`).join('&');
}
