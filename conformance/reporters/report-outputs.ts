import { join } from 'node:path';
import type { ConformanceReport } from '../report.js';
import { renderHtmlReport } from './html-reporter.js';
import { renderJsonReport } from './json-reporter.js';
import { renderJunitReport } from './junit-reporter.js';

/** The reporters that write a document (console is the terminal's, and always goes to stdout). */
export const FILE_REPORTERS = {
  json: { fileName: 'report.json', render: renderJsonReport },
  junit: { fileName: 'report.junit.xml', render: renderJunitReport },
  html: { fileName: 'report.html', render: renderHtmlReport },
} as const;

export type FileReporterName = keyof typeof FILE_REPORTERS;
export type ReporterName = 'console' | FileReporterName;
export const REPORTER_NAMES: readonly ReporterName[] = ['console', 'json', 'junit', 'html'];

/** Where one file reporter's document goes: a file, or stdout (`path` undefined). */
export interface ReportOutput {
  reporter: FileReporterName;
  path: string | undefined;
  render: (report: ConformanceReport) => string;
}

/** The reporters and --output do not fit together; the message says how to fix it. */
export class ReportOutputError extends Error {
  override name = 'ReportOutputError';
}

/**
 * Decides where each file reporter writes: with one, `output` is its file (stdout without
 * it); with several, `output` is a directory holding report.json, report.junit.xml and
 * report.html. Console output stays on stdout, so a file reporter may only share stdout
 * with nothing.
 *
 * @example
 * planReportOutputs(['json', 'junit'], 'reports'); // reports/report.json, reports/report.junit.xml
 */
export function planReportOutputs(
  reporters: readonly ReporterName[],
  output: string | undefined,
): { console: boolean; outputs: ReportOutput[]; directory: string | undefined } {
  const names = [...new Set(reporters)];
  const files = names.filter((n): n is FileReporterName => n !== 'console');
  const console = names.includes('console');
  if (files.length === 0) {
    if (output !== undefined)
      throw new ReportOutputError(
        '--output is for the json, junit and html reporters; console output goes to stdout',
      );
    return { console, outputs: [], directory: undefined };
  }
  if (files.length === 1) {
    const reporter = files[0] as FileReporterName;
    if (output === undefined && console)
      throw new ReportOutputError(
        `--reporter ${reporter} with --reporter console needs --output <file>: both would go to stdout`,
      );
    return {
      console,
      outputs: [{ reporter, path: output, render: FILE_REPORTERS[reporter].render }],
      directory: undefined,
    };
  }
  if (output === undefined)
    throw new ReportOutputError(
      `${files.map((f) => `--reporter ${f}`).join(' ')} need --output <directory> (one file each)`,
    );
  return {
    console,
    outputs: files.map((reporter) => ({
      reporter,
      path: join(output, FILE_REPORTERS[reporter].fileName),
      render: FILE_REPORTERS[reporter].render,
    })),
    directory: output,
  };
}
