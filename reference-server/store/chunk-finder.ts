/**
 * A file whose layout is unknown (the one read at start), to copy from whatever chunks it
 * holds byte for byte: `read` fills `into` from `position` and returns the bytes read.
 */
export interface UnknownFile {
  readonly size: number;
  read(into: Buffer, position: number): number;
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
export function finder(file: UnknownFile): (json: string, length: number) => number {
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
