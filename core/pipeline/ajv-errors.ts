import type { ErrorObject } from 'ajv';
import type { ProblemErrorEntry } from '../domain/api-problem.js';

/**
 * Turns ajv's errors into the contract's `errors[]` entries: a JSON Pointer fragment under
 * `base` (`#` for a body, `#/query/size` for a parameter) and a plain-words detail. A missing
 * or unknown property points at itself. Duplicates (ajv can report one fault twice) are folded.
 */
export function toErrorEntries(
  errors: readonly ErrorObject[] | null | undefined,
  base: string,
): ProblemErrorEntry[] {
  const entries = new Map<string, ProblemErrorEntry>();
  for (const error of errors ?? []) {
    const params = error.params as Record<string, unknown>;
    let path = error.instancePath;
    let detail = error.message ?? `violates ${error.keyword}`;
    if (error.keyword === 'required') {
      path += '/' + escape(String(params.missingProperty));
      detail = 'is required';
    } else if (error.keyword === 'additionalProperties') {
      path += '/' + escape(String(params.additionalProperty));
      detail = 'is not a known property';
    } else if (error.keyword === 'enum') {
      detail = `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    } else if (error.keyword === 'type' && params.type === 'integer') {
      detail = 'must be an integer';
    }
    const pointer = base + path;
    entries.set(`${pointer}\u0000${detail}`, { pointer, detail });
  }
  return [...entries.values()];
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
