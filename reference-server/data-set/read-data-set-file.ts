import { readFile } from 'node:fs/promises';
import { InvalidDataSetError } from '../../core/data-set/data-set-format.js';

/** A data set file that cannot be read at all (missing, a directory, no permission). */
export class UnreadableDataSetError extends Error {
  override name = 'UnreadableDataSetError';
}

/**
 * The JSON of a data set file, for `apikit serve --data FILE`. A file that cannot be read is an
 * UnreadableDataSetError saying why; JSON that does not parse is an InvalidDataSetError naming
 * the file (and the line and column where JSON.parse gives a position).
 *
 * @example
 * const input = await readDataSetFile('examples/data/shop.json');
 */
export async function readDataSetFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'a directory, not a file'
          : code === 'EACCES'
            ? 'no permission to read it'
            : (error as Error).message;
    throw new UnreadableDataSetError(`cannot read the data set ${file}: ${why}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InvalidDataSetError(
      [{ pointer: '', message: `is not JSON: ${describeJsonError(error, text)}` }],
      file,
    );
  }
}

/** JSON.parse's message with the line and column of its position, when it gives one. */
function describeJsonError(error: unknown, text: string): string {
  const message = (error as Error).message;
  const position = /position (\d+)/.exec(message)?.[1];
  if (position === undefined) return message;
  const before = text.slice(0, Number(position));
  const line = before.split('\n').length;
  const column = Number(position) - before.lastIndexOf('\n');
  return `${message} (line ${line}, column ${column})`;
}
