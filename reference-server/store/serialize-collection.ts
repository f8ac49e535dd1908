import {
  build,
  CHUNK_RECORDS,
  encodeShared,
  rememberable,
  unchanged,
  type Chunk,
} from './chunk.js';
import type { SerializedOutput } from './serialized-output.js';

/**
 * Writes the records of one collection (`{"1":{...},...}` without its braces) to `out`, chunk
 * by chunk: a chunk equal to the one at its position in `previous` is a range of the committed
 * file, any other is serialized again. Returns the collection's chunks, to be remembered.
 */
export function serializeCollection(
  value: Record<string, unknown>,
  previous: Chunk[],
  out: SerializedOutput,
): Chunk[] {
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
    if (out.text.length > 0) out.pushBytes(Buffer.from(out.text));
    out.text = '';
    const index = chunks.length;
    const offset = out.size;
    let chunk: Chunk;
    if (candidate !== undefined) {
      chunk = candidate;
      out.pushRange(chunk.offset, chunk.length);
    } else {
      const built = build(keys, records, index > 0);
      chunk = built.chunk;
      const found = out.find?.(built.json, chunk.length) ?? -1;
      if (found >= 0) out.pushRange(found, chunk.length);
      else out.pushBytes(encodeShared(built.json, chunk.length));
    }
    out.placed.push(chunk);
    out.offsets.push(offset);
    chunks.push(chunk);
    candidate = rememberable(previous[index + 1]);
    count = 0;
    at = 0;
    keys = [];
    records = [];
  };
  for (const key in value) {
    const entry = value[key];
    if (entry === undefined || typeof entry === 'function' || typeof entry === 'symbol') continue; // omitted, as JSON.stringify omits them
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
  return chunks;
}
