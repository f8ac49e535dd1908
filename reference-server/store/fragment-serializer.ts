import type { ByteRange } from './file-replacer.js';

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
interface Chunk {
  keys: string[];
  records: object[];
  names: (readonly string[])[];
  values: unknown[];
  /** Where the chunk's JSON (`"1":{...},"2":{...}`, after a comma if not first) starts in the committed file. */
  offset: number;
  /** Its length in bytes. */
  length: number;
}

/** The bytes of one serialization of the data set, and how to remember its layout. */
export interface SerializedFile {
  /**
   * The file's bytes in order: encoded pieces, and ranges of the file last committed (only
   * when serialized with `reuse`), for the chunks that are unchanged since.
   */
  pieces: (Buffer | ByteRange)[];
  /** The file's size in bytes. */
  size: number;
  /**
   * Makes this file the one the next `serialize(data, true)` copies unchanged chunks from.
   * Call it once the file is in place (durably), and never for a file that failed.
   */
  commit(): void;
}

/**
 * A file whose layout is unknown (the one read at start), to copy from whatever chunks it
 * holds byte for byte: `read` fills `into` from `position` and returns the bytes read.
 */
export interface UnknownFile {
  readonly size: number;
  read(into: Buffer, position: number): number;
}

/** See {@link createFragmentSerializer}. */
export interface FragmentSerializer {
  /**
   * The bytes of `JSON.stringify(data)` as of this call. With `reuse`, the chunks unchanged
   * since the last committed file come as ranges of that file; without, every byte is encoded
   * (the file to copy from is gone, or another write is still in flight), except that chunks
   * found byte for byte in `unknown` (the file read at start) are ranges of it.
   */
  serialize(data: object, reuse: boolean, unknown?: UnknownFile): SerializedFile;
  /** Forgets the committed file (after a failed write, or when it changed under us). */
  forget(): void;
}

/**
 * A serializer of the data set that gives exactly the bytes of `JSON.stringify(data)`, as
 * pieces to be written one after the other, and remembers the file it last committed as chunks
 * of consecutive records of each collection (`users`, `orders`, ...) and where each chunk's
 * bytes are in that file. A chunk whose records are the very same objects under the same keys,
 * each with the same keys and values as when the chunk was made (strings, numbers, booleans,
 * nulls; arrays of primitives element by element, since `roleIds` changes in place), is a range
 * of the committed file, to be copied from it; any other chunk is serialized and encoded again.
 * A flush of 100,000 users of which a few dozen changed so costs a walk over the records and the
 * encoding of the last chunk or two, instead of a full `JSON.stringify` and a 30 MB encode
 * (together half a second on a small machine), and the file is held in memory neither as one
 * string nor as its chunks' bytes (31 MB at 100,000 users).
 *
 * A record holding another object (a nested object, a Date) keeps its chunk from being
 * remembered: a change inside it could not be seen. Call it synchronously: the pieces are the
 * data at the moment of the call, whatever changes afterwards. New chunks are encoded into
 * SharedArrayBuffers, so that they reach the worker thread that writes the file without a copy.
 *
 * @example
 * const serializer = createFragmentSerializer();
 * const { pieces } = serializer.serialize(data, false); // Buffers only
 * Buffer.concat(pieces as Buffer[]).toString() === JSON.stringify(data); // true
 */
export function createFragmentSerializer(): FragmentSerializer {
  let committed = new Map<string, Chunk[]>();

  const serialize = (data: object, reuse: boolean, unknown?: UnknownFile): SerializedFile => {
    const find = unknown === undefined ? undefined : finder(unknown);
    const pieces: (Buffer | ByteRange)[] = [];
    let size = 0;
    const pushBytes = (bytes: Buffer) => {
      pieces.push(bytes);
      size += bytes.length;
    };
    const pushRange = (offset: number, length: number) => {
      const last = pieces[pieces.length - 1];
      // Adjacent unchanged chunks are one range: one read and one write instead of many.
      if (last !== undefined && !Buffer.isBuffer(last) && last.offset + last.length === offset)
        (last as { length: number }).length += length;
      else pieces.push({ offset, length });
      size += length;
    };
    const next = new Map<string, Chunk[]>();
    // Where each chunk of `next` starts in this file, applied on commit (a reused chunk must
    // keep its old offset until then: a failed write leaves the committed file as it was).
    const placed: Chunk[] = [];
    const offsets: number[] = [];
    const commit = () => {
      for (let i = 0; i < placed.length; i++) (placed[i] as Chunk).offset = offsets[i] as number;
      committed = next;
    };
    if (!isPlainRecord(data)) {
      pushBytes(Buffer.from(JSON.stringify(data) ?? 'undefined'));
      return { pieces, size, commit };
    }
    const remembered = reuse ? committed : new Map<string, Chunk[]>();
    let text = '{';
    let first = true;
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
          if (text.length > 0) pushBytes(Buffer.from(text));
          text = '';
          const index = chunks.length;
          const offset = size;
          let chunk: Chunk;
          if (candidate !== undefined) {
            chunk = candidate;
            pushRange(chunk.offset, chunk.length);
          } else {
            const built = build(keys, records, index > 0);
            chunk = built.chunk;
            const found = find?.(built.json, chunk.length) ?? -1;
            if (found >= 0) pushRange(found, chunk.length);
            else pushBytes(encodeShared(built.json, chunk.length));
          }
          placed.push(chunk);
          offsets.push(offset);
          chunks.push(chunk);
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
    pushBytes(Buffer.from(`${text}}`));
    return { pieces, size, commit };
  };

  return {
    serialize,
    forget() {
      committed = new Map();
    },
  };
}

/** The chunk, if it can be reused at all (its records were remembered). */
function rememberable(chunk: Chunk | undefined): Chunk | undefined {
  return chunk !== undefined && chunk.records.length > 0 ? chunk : undefined;
}

/** A chunk of these records and its bytes; its JSON starts with a comma after another chunk. */
function build(
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

/** How far past the last chunk found the next one is looked for in an unknown file. */
const SEARCH_BYTES = 1 << 20;
/** Searches that may fail before the rest of the chunks are encoded without looking. */
const SEARCHES_MISSED = 16;

/**
 * Where `json` (`length` bytes) is in `file`, byte for byte, or -1. The chunks are looked for
 * in order: where the last one found ended, and when not there (a changed chunk before it, the
 * data set's own keys of another length), in the next MB. Exact or nothing: a chunk is only a
 * range of the file when the file holds those very bytes.
 */
function finder(file: UnknownFile): (json: string, length: number) => number {
  let expected = 0; // where the next chunk is if nothing before it changed
  let from = 0; // the end of the last chunk found
  let missed = 0;
  let mine = Buffer.alloc(0);
  let theirs = Buffer.alloc(0);
  const matches = (at: number, length: number) =>
    at + length <= file.size &&
    file.read(theirs.subarray(0, length), at) === length &&
    mine.compare(theirs, 0, length, 0, length) === 0;
  return (json, length) => {
    if (missed >= SEARCHES_MISSED) return -1;
    if (mine.length < length) {
      mine = Buffer.allocUnsafeSlow(Math.max(length, 2 * mine.length));
      theirs = Buffer.allocUnsafeSlow(mine.length);
    }
    mine.write(json, 0, length);
    let at = -1;
    if (matches(expected, length)) at = expected;
    else {
      const window = Buffer.allocUnsafeSlow(Math.min(SEARCH_BYTES + length, file.size - from));
      const read = window.length > 0 ? file.read(window, from) : 0;
      const head = mine.subarray(0, Math.min(length, 64));
      for (let i = window.subarray(0, read).indexOf(head); i >= 0 && at < 0;) {
        if (matches(from + i, length)) at = from + i;
        else i = window.subarray(0, read).indexOf(head, i + 1);
      }
    }
    if (at < 0) {
      missed++;
      expected += length; // a chunk changed in place, as long as it was, most likely
      return -1;
    }
    expected = from = at + length;
    return at;
  };
}
/** `json` (`length` bytes in UTF-8) encoded into a SharedArrayBuffer of its exact size. */
function encodeShared(json: string, length: number): Buffer {
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
