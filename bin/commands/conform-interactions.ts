import { readFile } from 'node:fs/promises';
import {
  InteractionFileError,
  parseInteractionFile,
  type InteractionFile,
} from '../../conformance/index.js';
import { CliError } from '../cli-error.js';

/**
 * `--interactions FILE`: a frontend's recording (decision 0113), read and checked before the
 * first request; a missing file, bad JSON or another format is exit 2 with what to do.
 */
export async function readInteractionsFile(path: string): Promise<InteractionFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(
      `--interactions ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the frontend's job writes it with APIKIT_RECORD=${path}`,
    );
  }
  try {
    return parseInteractionFile(text, path);
  } catch (error) {
    if (error instanceof InteractionFileError)
      throw new CliError(`--interactions ${error.message}`);
    throw error;
  }
}
