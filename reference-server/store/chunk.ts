/**
 * A chunk: a run of consecutive records of one collection, remembered as they were serialized,
 * and the pure helpers that make one and compare records with it.
 */

/**
 * Records per chunk: a changed record re-serializes its chunk, no more. Small, because creates
 * append to the last chunk, which every flush then serializes again.
 */
export const CHUNK_RECORDS = 64;

/**
 * A run of consecutive records of one collection as they were when the chunk was serialized:
 * their keys, the objects, and the records' values in key order, one record after the other in
 * one flat list (primitives as they were; arrays, which change in place, as a marker, their
 * length and their elements). Not its bytes: those are in the file last committed, at `offset`.
 */
export interface Chunk {
  keys: string[];
  records: object[];
  names: (readonly string[])[];
  values: unknown[];
  /** Where the chunk's JSON (`"1":{...},"2":{...}`, after a comma if not first) starts in the committed file. */
  offset: number;
  /** Its length in bytes. */
  length: number;
}

/** The chunk, if it can be reused at all (its records were remembered). */
export function rememberable(chunk: Chunk | undefined): Chunk | undefined {
  return chunk !== undefined && chunk.records.length > 0 ? chunk : undefined;
}

/** A chunk of these records and its bytes; its JSON starts with a comma after another chunk. */
export function build(
  keys: string[],
  records: unknown[],
  afterAnother: boolean,
): { chunk: Chunk; json: string } {
  let json = afterAnother ? ',' : '';
  const names: (readonly string[])[] = [];
  const values: unknown[] = [];
  let rememberable = true;
  let shared: readonly string[] | undefined;
  for (let i = 0; i < keys.length; i++) {
    const record = records[i];
    json += `${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:${JSON.stringify(record)}`;
    if (!rememberable) continue;
    const recordNames = isPlainRecord(record) ? snapshotOf(record, values) : undefined;
    if (recordNames === undefined) {
      rememberable = false;
      continue;
    }
    // Records of a collection mostly share one list of names: keep one copy.
    if (shared === undefined || !sameNames(shared, recordNames)) shared = recordNames;
    names.push(shared);
  }
  const length = Buffer.byteLength(json);
  return {
    chunk: {
      keys: rememberable ? keys : [],
      records: rememberable ? (records as object[]) : [],
      names: rememberable ? names : [],
      values: rememberable ? values : [],
      offset: -1,
      length,
    },
    json,
  };
}

/** `json` (`length` bytes in UTF-8) encoded into a SharedArrayBuffer of its exact size. */
export function encodeShared(json: string, length: number): Buffer {
  const bytes = Buffer.from(new SharedArrayBuffer(length));
  bytes.write(json);
  return bytes;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** An object JSON.stringify writes as its own keys: not an array, no toJSON. */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return (
    (proto === Object.prototype || proto === null) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}

/** The record's names; its values appended to `values` (undefined if it cannot be remembered). */
function snapshotOf(record: object, values: unknown[]): string[] | undefined {
  const names: string[] = [];
  for (const name in record) {
    const value = (record as Record<string, unknown>)[name];
    if (Array.isArray(value)) {
      if (!value.every(isPrimitive)) return undefined;
      // Inline, not as a copy: an array of its own per record (roleIds) cost 5 MB at 100,000.
      values.push(ARRAY, value.length, ...value);
    } else if (isPrimitive(value)) values.push(value);
    else return undefined;
    names.push(name);
  }
  return names;
}

/** Marks an array of primitives in a snapshot: followed by its length, then its elements. */
const ARRAY: unknown = Object.freeze({});

/**
 * Whether `record` still has `names` with the values at `values[at...]`: the index after its
 * values if so, -1 if not.
 */
export function unchanged(
  record: object,
  names: readonly string[],
  values: readonly unknown[],
  at: number,
): number {
  let i = 0;
  let next = at;
  for (const name in record) {
    if (name !== names[i]) return -1;
    const now = (record as Record<string, unknown>)[name];
    const then = values[next];
    if (then === ARRAY) {
      const length = values[next + 1] as number;
      if (!Array.isArray(now) || now.length !== length) return -1;
      for (let j = 0; j < length; j++) if (now[j] !== values[next + 2 + j]) return -1;
      next += 2 + length;
    } else {
      if (now !== then) return -1;
      next++;
    }
    i++;
  }
  return i === names.length ? next : -1;
}

function isPrimitive(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    value === undefined
  );
}
