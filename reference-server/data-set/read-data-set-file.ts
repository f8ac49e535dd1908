import { readFile } from 'node:fs/promises';
import { InvalidDataSetError } from './data-set-format.js';

/**
 * The JSON of a data set file, for `apikit serve --data FILE`. An unreadable file or JSON that
 * does not parse is an InvalidDataSetError naming the file (and, for JSON, the line and column),
 * like every other problem of a data set.
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
    throw new InvalidDataSetError([{ pointer: '', message: `cannot read ${file}: ${why}` }], file);
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
