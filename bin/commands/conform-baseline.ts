import { access, constants, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  BaselineError,
  parseBaseline,
  renderBaseline,
  updateBaseline,
  type Baseline,
  type ConformanceReport,
} from '../../conformance/index.js';
import { CliError } from '../cli-error.js';

/** The `--baseline` file as read before the run, and whether the run rewrites it. */
export interface BaselineFile {
  path: string;
  update: boolean;
  /** What the file holds; empty when `--update-baseline` creates it. */
  baseline: Baseline;
}

/**
 * Reads the `--baseline` file before the first request, so that a typo or a foreign file is
 * an exit 2 in a second rather than a verdict against nothing. A missing file is an error
 * unless `--update-baseline` is there to create it: an empty baseline would quietly turn every
 * known failure red (or, had the run meant to accept them, say nothing of it).
 */
export async function readBaselineFile(path: string, update: boolean): Promise<BaselineFile> {
  const found = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new CliError(`--baseline ${path}: cannot read it: ${error.code ?? error.message}`);
  });
  if (found === undefined) {
    if (!update)
      throw new CliError(
        `--baseline ${path}: no such file; write it first with --baseline ${path} --update-baseline`,
      );
    await writable(path, dirname(path));
    return { path, update, baseline: { entries: [] } };
  }
  if (found.isDirectory()) throw new CliError(`--baseline ${path}: it is a directory`);
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`--baseline ${path}: cannot read it: ${error.code ?? error.message}`);
  });
  let baseline: Baseline;
  try {
    baseline = parseBaseline(text);
  } catch (error) {
    if (error instanceof BaselineError) throw new CliError(`--baseline ${path}: ${error.message}`);
    throw error;
  }
  if (update) await writable(path, path);
  return { path, update, baseline };
}

/**
 * Writes the baseline the run leaves (`updateBaseline`) and says what changed. A run that did
 * not finish leaves the file as it was: what it did not reach is not fixed.
 */
export async function writeBaselineFile(
  file: BaselineFile,
  report: ConformanceReport,
): Promise<void> {
  if (report.summary.incomplete) {
    process.stderr.write(
      `conform: ${file.path} left as it was (--update-baseline): the run did not finish\n`,
    );
    return;
  }
  const next = updateBaseline(report, file.baseline);
  await writeFile(file.path, renderBaseline(next)).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`cannot write ${file.path}: ${error.code ?? error.message}`);
  });
  const before = new Set(file.baseline.entries.map((e) => JSON.stringify(e)));
  const after = new Set(next.entries.map((e) => JSON.stringify(e)));
  const added = [...after].filter((e) => !before.has(e)).length;
  const dropped = [...before].filter((e) => !after.has(e)).length;
  process.stderr.write(
    `conform: wrote ${file.path}: ${next.entries.length} known failure(s) (${added} added, ${dropped} dropped)\n`,
  );
}

/** The file can be (re)written, checked before the run: `place` is the file or its directory. */
async function writable(path: string, place: string): Promise<void> {
  await access(place, constants.W_OK).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`--baseline ${path}: cannot write it: ${error.code ?? error.message}`);
  });
}
