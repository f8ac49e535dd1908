import type { KeptFile } from './kept-file.js';

/** `length` bytes from `offset` of the source file (see {@link ReplaceOptions.source}). */
export interface ByteRange {
  readonly offset: number;
  readonly length: number;
}

/** Options of {@link replaceFile}. */
export interface ReplaceOptions {
  /**
   * The file a previous `replaceFile` kept open: the {@link ByteRange} pieces are copied from
   * it. It must be {@link KeptFile.intact} (checked again by the worker before and after copying).
   */
  source?: KeptFile;
  /** Keep the new file open, to be the `source` of a later replace (see {@link KeptFile}). */
  keep?: boolean;
}
