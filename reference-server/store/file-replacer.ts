import type { KeptFile } from './kept-file.js';
import type { ByteRange, ReplaceOptions } from './replace-options.js';
import { replacer } from './replacer.js';

export { keepOpen, type KeptFile } from './kept-file.js';
export type { ByteRange, ReplaceOptions } from './replace-options.js';

/**
 * Replaces `file` with `pieces` (written one after the other) durably: a fresh temp file beside
 * it (`.NAME.RANDOM.tmp`, opened exclusively), written, fsynced, renamed over the target, and
 * the directory fsynced so the rename itself survives a crash; missing directories are
 * created. On failure the temp file is removed and the target is untouched (a failed fsync of
 * the directory leaves the new file in place, but the promise rejects all the same).
 *
 * The whole sequence runs with synchronous calls on one worker thread, shared by the process,
 * and the promise settles with one message back (why a worker: decision 0031).
 * Pieces backed by a SharedArrayBuffer reach the worker without a copy; others are copied.
 * {@link ByteRange} pieces are copied from `options.source` (read into a reused buffer and
 * written), so that a caller need not keep in memory what the last file already holds. With
 * `keep`, it resolves with the new file kept open for that.
 *
 * @example
 * await replaceFile('/data/db.json', [Buffer.from('{"a":1}')]);
 * const kept = await replaceFile(file, [Buffer.from('{"a":[')], { keep: true });
 * await replaceFile(file, [{ offset: 0, length: 6 }, Buffer.from('2]}')], { source: kept });
 * kept?.release();
 */
export function replaceFile(
  file: string,
  pieces: readonly (Uint8Array | ByteRange)[],
  options: ReplaceOptions = {},
): Promise<KeptFile | undefined> {
  return replacer().run(file, pieces, options);
}
