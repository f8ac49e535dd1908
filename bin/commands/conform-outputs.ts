import { access, constants, mkdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { FILE_REPORTERS } from '../../conformance/index.js';
import { CliError } from '../cli-error.js';

/**
 * Makes sure every report can be written before the run starts: the directory is created
 * (with its parents), an `--output` ending in `/` or naming a directory takes the reporter's
 * file name in it, and a file where a directory must be (or the reverse), or a place that
 * cannot be written, is an exit 2 up front rather than after the run.
 */
export async function prepareOutputs(
  outputs: { reporter: keyof typeof FILE_REPORTERS; path: string | undefined }[],
  directory: string | undefined,
  output: string | undefined,
): Promise<void> {
  const kind = async (path: string) => {
    const found = await stat(path).catch(() => undefined);
    return found === undefined ? 'absent' : found.isDirectory() ? 'directory' : 'file';
  };
  const makeDirectory = async (path: string) => {
    if ((await kind(path)) === 'file')
      throw new CliError(
        `--output ${output}: ${path} is a file, but the reports need a directory there`,
      );
    await mkdir(path, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
      throw new CliError(
        `--output ${output}: cannot create the directory ${path}: ${error.code ?? error.message}`,
      );
    });
  };
  if (directory !== undefined) await makeDirectory(directory);
  for (const output of outputs) {
    if (output.path === undefined) continue;
    if (directory === undefined) {
      if (/[\\/]$/.test(output.path) || (await kind(output.path)) === 'directory') {
        await makeDirectory(output.path);
        output.path = join(output.path, FILE_REPORTERS[output.reporter].fileName);
      } else await makeDirectory(dirname(output.path));
    }
    const found = await kind(output.path);
    if (found === 'directory')
      throw new CliError(
        `cannot write the ${output.reporter} report to ${output.path}: it is a directory`,
      );
    await access(found === 'file' ? output.path : dirname(output.path), constants.W_OK).catch(
      (error: NodeJS.ErrnoException) => {
        throw new CliError(
          `cannot write the ${output.reporter} report to ${output.path}: ${error.code ?? error.message}`,
        );
      },
    );
  }
}

/** A --spec file that exists (a typo fails before the run, not in the parser). */
export async function existingFile(path: string): Promise<string> {
  const absolute = resolve(path);
  const found = await stat(absolute).catch(() => undefined);
  if (!found?.isFile()) throw new CliError(`--spec ${path}: no such file`);
  return absolute;
}
