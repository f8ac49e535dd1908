import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../spec/operations.js';
import { httpDate, strongETag, weakETag } from '../core/pipeline/entity-tag.js';

/**
 * Completes the headers of a canned answer (an override or a `Prefer` example) with every
 * header the spec requires for that status and the test did not give: ETag and Last-Modified
 * computed from the body as the server would, the rest from the spec's documented example. So a
 * test writes only what it cares about, and the answer still passes the mocks' validation.
 */
export function completeCannedHeaders(
  op: SpecOperation,
  status: number,
  body: string | null,
  headers: Headers,
): void {
  const documented = op.responses[String(status)]?.headers ?? {};
  for (const [name, header] of Object.entries(documented) as [string, OpenAPIV3.HeaderObject][]) {
    if (!header.required || headers.has(name)) continue;
    const value = cannedValue(name, header, body);
    if (value !== undefined) headers.set(name, value);
  }
}

function cannedValue(
  name: string,
  header: OpenAPIV3.HeaderObject,
  body: string | null,
): string | undefined {
  const lower = name.toLowerCase();
  if (lower === 'etag' && body !== null) {
    // Lists and pages carry a weak tag, single representations a strong one (contract).
    const parsed = safeParse(body);
    return Array.isArray(parsed) || (parsed && typeof parsed === 'object' && 'content' in parsed)
      ? weakETag(body)
      : strongETag(body);
  }
  if (lower === 'last-modified') {
    const updatedAt = (safeParse(body) as { updatedAt?: unknown } | undefined)?.updatedAt;
    return httpDate(typeof updatedAt === 'string' ? updatedAt : new Date().toISOString());
  }
  const schema = header.schema as OpenAPIV3.SchemaObject | undefined;
  const example = header.example ?? schema?.example ?? schema?.enum?.[0];
  return example === undefined ? undefined : String(example);
}

function safeParse(body: string | null): unknown {
  try {
    return body === null ? undefined : JSON.parse(body);
  } catch {
    return undefined;
  }
}
