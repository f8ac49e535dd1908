import type { Chunk } from './chunk.js';
import type { ByteRange } from './file-replacer.js';

/** One serialization's pieces as they are gathered, and where its chunks land in the file. */
export class SerializedOutput {
  readonly pieces: (Buffer | ByteRange)[] = [];
  size = 0;
  /** JSON written but not yet encoded: pushed as bytes before the next chunk. */
  text = '';
  /**
   * Where each chunk of this file starts, applied on commit (a reused chunk must keep its old
   * offset until then: a failed write leaves the committed file as it was).
   */
  readonly placed: Chunk[] = [];
  readonly offsets: number[] = [];

  constructor(
    /** Where a chunk's bytes are in the file read at start, or -1 (see `finder`). */
    readonly find: ((json: string, length: number) => number) | undefined,
  ) {}

  pushBytes(bytes: Buffer): void {
    this.pieces.push(bytes);
    this.size += bytes.length;
  }

  pushRange(offset: number, length: number): void {
    const pieces = this.pieces;
    const last = pieces[pieces.length - 1];
    // Adjacent unchanged chunks are one range: one read and one write instead of many.
    if (last !== undefined && !Buffer.isBuffer(last) && last.offset + last.length === offset)
      (last as { length: number }).length += length;
    else pieces.push({ offset, length });
    this.size += length;
  }

  /** Makes the chunks' new offsets theirs (the file is in place). */
  place(): void {
    const { placed, offsets } = this;
    for (let i = 0; i < placed.length; i++) (placed[i] as Chunk).offset = offsets[i] as number;
  }
}
