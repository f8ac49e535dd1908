/**
 * Records per cached chunk: a changed record re-serializes its chunk, no more. Small, because
 * creates append to the last chunk, which every flush then serializes again.
 */
export const CHUNK_RECORDS = 64;

/**
 * A run of consecutive records of one collection as they were when `bytes` was made: their
 * keys, the objects, and the records' values in key order, one record after the other in one
 * flat list (primitives as they were; arrays, which change in place, as a marker, their length
 * and their elements).
 */
interface Chunk {
  keys: string[];
  records: object[];
  names: (readonly string[])[];
  values: unknown[];
  /** The chunk's JSON (`"1":{...},"2":{...}`, after a comma if not first), encoded once. */
  bytes: Buffer;
}

/** Options of {@link createFragmentSerializer}. */
export interface FragmentSerializerOptions {
  /**
   * Encode the remembered chunks into SharedArrayBuffers, so that they can be posted to a
   * worker thread without a copy (the file adapter writes from one).
   */
  sharedMemory?: boolean;
}

/**
 * A serializer of the data set that gives exactly the bytes of `JSON.stringify(data)`, as
 * pieces to be written one after the other, and remembers each collection (`users`, `orders`,
 * ...) as encoded chunks of consecutive records. A chunk whose records are the very same
 * objects under the same keys, each with the same keys and values as when the chunk was made
 * (strings, numbers, booleans, nulls; arrays of primitives element by element, since `roleIds`
 * changes in place), is written from its remembered bytes; any other chunk is serialized and
 * encoded again. A flush of 100,000 users of which a few dozen changed so costs a walk over
 * the records and the re-encoding of the last chunk or two, instead of a full
 * `JSON.stringify` and a 20 MB encode (together half a second on a small machine), and the
 * file is never held as one string or one buffer.
 *
 * A record holding another object (a nested object, a Date) keeps its chunk from being
 * remembered: a change inside it could not be seen. Call it synchronously: the pieces are the
 * data at the moment of the call, whatever changes afterwards.
 *
 * @example
 * const serialize = createFragmentSerializer();
 * Buffer.concat(serialize(data)).toString() === JSON.stringify(data); // true
 */
export function createFragmentSerializer(
  options: FragmentSerializerOptions = {},
): (data: object) => Buffer[] {
  const encode = options.sharedMemory ? encodeShared : (json: string) => Buffer.from(json);
  let remembered = new Map<string, Chunk[]>();

  return (data) => {
    if (!isPlainRecord(data)) return [Buffer.from(JSON.stringify(data) ?? 'undefined')];
    const pieces: Buffer[] = [];
    let text = '{';
    let first = true;
    const next = new Map<string, Chunk[]>();
    for (const name of Object.keys(data)) {
      const value = (data as Record<string, unknown>)[name];
      if (isPlainRecord(value)) {
        text += `${first ? '' : ','}${JSON.stringify(name)}:{`;
        first = false;
        const previous = remembered.get(name) ?? [];
        const chunks: Chunk[] = [];
        // The records of the chunk being gathered are compared one by one, as they come, with
        // the remembered chunk at the same position; only once they differ are they collected
        // (an unchanged chunk costs no arrays).
        let candidate = rememberable(previous[0]);
        let count = 0; // records in the chunk being gathered
        let at = 0; // where the next record's values start in candidate.values
        let keys: string[] = [];
        let records: unknown[] = [];
        const diverge = (from: Chunk) => {
          keys = from.keys.slice(0, count);
          records = from.records.slice(0, count);
          candidate = undefined;
        };
        const emit = () => {
          if (count === 0) return;
          if (candidate !== undefined && count !== candidate.keys.length) diverge(candidate);
          const index = chunks.length;
          const chunk = candidate ?? build(keys, records, index > 0, encode);
          chunks.push(chunk);
          if (text.length > 0) pieces.push(Buffer.from(text));
          pieces.push(chunk.bytes);
          text = '';
          candidate = rememberable(previous[index + 1]);
          count = 0;
          at = 0;
          keys = [];
          records = [];
        };
        for (const key in value) {
          const entry = value[key];
          if (entry === undefined || typeof entry === 'function' || typeof entry === 'symbol')
            continue; // omitted, as JSON.stringify omits them
          if (candidate !== undefined) {
            const then = candidate;
            const after =
              count < then.keys.length && then.keys[count] === key && then.records[count] === entry
                ? unchanged(entry as object, then.names[count] as string[], then.values, at)
                : -1;
            if (after >= 0) {
              at = after;
              if (++count === CHUNK_RECORDS) emit();
              continue;
            }
            diverge(then);
          }
          keys.push(key);
          records.push(entry);
          if (++count === CHUNK_RECORDS) emit();
        }
        emit();
        text += '}';
        next.set(name, chunks);
      } else {
        const json = JSON.stringify(value) as string | undefined;
        if (json === undefined) continue;
        text += `${first ? '' : ','}${JSON.stringify(name)}:${json}`;
        first = false;
      }
    }
    pieces.push(Buffer.from(`${text}}`));
    remembered = next;
    return pieces;
  };
}

/** The chunk, if it can be reused at all (its records were remembered). */
function rememberable(chunk: Chunk | undefined): Chunk | undefined {
  return chunk !== undefined && chunk.records.length > 0 ? chunk : undefined;
}

/** A chunk of these records; its JSON starts with a comma when it follows another chunk. */
function build(
  keys: string[],
  records: unknown[],
  afterAnother: boolean,
  encode: (json: string) => Buffer,
): Chunk {
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
  return {
    keys: rememberable ? keys : [],
    records: rememberable ? (records as object[]) : [],
    names: rememberable ? names : [],
    values: rememberable ? values : [],
    bytes: encode(json),
  };
}

/** `json` encoded (UTF-8) into a SharedArrayBuffer of its exact size. */
function encodeShared(json: string): Buffer {
  const bytes = Buffer.from(new SharedArrayBuffer(Buffer.byteLength(json)));
  bytes.write(json);
  return bytes;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** An object JSON.stringify writes as its own keys: not an array, no toJSON. */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
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
function unchanged(
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
