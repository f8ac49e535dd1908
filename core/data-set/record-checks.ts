import type { ValidateFunction } from 'ajv';
import { toErrorEntries } from '../pipeline/ajv-errors.js';
import type { Report } from './checked-data-set.js';

/** Reports every schema error of `value`, pointed into the file at `at`. */
export function schemaProblems(
  validate: ValidateFunction,
  value: unknown,
  at: string,
  problem: Report,
) {
  if (validate(value)) return;
  for (const entry of toErrorEntries(validate.errors, '')) {
    // A readOnly id in a response schema still reads "id"; pointers are into the file.
    problem(at + entry.pointer, entry.detail);
  }
}

/** Reports every field of `raw` not in `known`. */
export function unknownFields(
  raw: Record<string, unknown>,
  known: Set<string>,
  at: string,
  problem: Report,
) {
  for (const key of Object.keys(raw)) {
    if (!known.has(key))
      problem(`${at}/${escape(key)}`, `is not a known field (known: ${[...known].join(', ')})`);
  }
}

/** Reports an id seen before in the collection `name`, else remembers it. */
export function duplicate(
  seen: Map<number, number>,
  id: number,
  index: number,
  name: string,
  at: string,
  problem: Report,
) {
  const first = seen.get(id);
  if (first !== undefined) problem(`${at}/id`, `${id} is also the id of /${name}/${first}`);
  else seen.set(id, index);
}

/** Reports an updatedAt before createdAt. */
export function datesInOrder(dto: Record<string, unknown>, at: string, problem: Report) {
  const created = Date.parse(String(dto.createdAt));
  const updated = Date.parse(String(dto.updatedAt));
  if (!Number.isNaN(created) && !Number.isNaN(updated) && updated < created)
    problem(`${at}/updatedAt`, `is before createdAt (${dto.createdAt})`);
}

/** A time normalized to ISO 8601 UTC when it parses; anything else is left for the schema. */
export function time(value: unknown, fallback: unknown): unknown {
  if (value === undefined) return fallback;
  if (typeof value !== 'string') return value;
  const ms = Date.parse(value);
  return /^\d{4}-\d\d-\d\dT/.test(value) && !Number.isNaN(ms) ? new Date(ms).toISOString() : value;
}

export function idsOf(records: unknown[]): Set<unknown> {
  return new Set(records.map((record) => (isObject(record) ? record.id : undefined)));
}

/** The record without its undefined fields. */
export function defined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a value is, for a message: `null`, `an array`, `string`, ... */
export function kind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/** A key as a JSON pointer segment. */
export function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
