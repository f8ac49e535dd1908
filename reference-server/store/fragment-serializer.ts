import { finder, type UnknownFile } from './chunk-finder.js';
import { isPlainRecord, type Chunk } from './chunk.js';
import type { ByteRange } from './file-replacer.js';
import { serializeCollection } from './serialize-collection.js';
import { SerializedOutput } from './serialized-output.js';

export { CHUNK_RECORDS } from './chunk.js';
export type { UnknownFile } from './chunk-finder.js';

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
 * of the committed file, to be copied from it; any other chunk is serialized and encoded again
 * (why, and what it saves at 100,000 users: decisions 0028 and 0035).
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
    const out = new SerializedOutput(unknown === undefined ? undefined : finder(unknown));
    const next = new Map<string, Chunk[]>();
    const commit = () => {
      out.place();
      committed = next;
    };
    if (!isPlainRecord(data)) {
      out.pushBytes(Buffer.from(JSON.stringify(data) ?? 'undefined'));
      return { pieces: out.pieces, size: out.size, commit };
    }
    const remembered = reuse ? committed : new Map<string, Chunk[]>();
    out.text = '{';
    let first = true;
    for (const name of Object.keys(data)) {
      const value = (data as Record<string, unknown>)[name];
      if (isPlainRecord(value)) {
        out.text += `${first ? '' : ','}${JSON.stringify(name)}:{`;
        first = false;
        next.set(name, serializeCollection(value, remembered.get(name) ?? [], out));
        out.text += '}';
      } else {
        const json = JSON.stringify(value) as string | undefined;
        if (json === undefined) continue;
        out.text += `${first ? '' : ','}${JSON.stringify(name)}:${json}`;
        first = false;
      }
    }
    out.pushBytes(Buffer.from(`${out.text}}`));
    return { pieces: out.pieces, size: out.size, commit };
  };

  return {
    serialize,
    forget() {
      committed = new Map();
    },
  };
}
