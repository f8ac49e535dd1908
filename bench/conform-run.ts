import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from './repo-root.js';
import { ADMIN, USER } from './subjects/reference-server-subject.js';
import { track } from './start-process.js';

const CLI = join(REPO_ROOT, 'bin/apikit.js');
const CONFORM_TIMEOUT_MS = 180_000;

/** One timed `apikit conform` process. */
export interface ConformRun {
  /** Spawn to exit: node's start, the spec, logins, every check, the report. */
  wallMs: number;
  exitCode: number | null;
  /** From its JSON report. */
  requests?: number;
  /** The runner's own duration (its report). */
  runnerMs?: number;
  failed?: number;
  /** The fuzz phase alone (its report's `summary.fuzz`): what the CLI prints as the fuzz rate. */
  fuzz?: { requests: number; durationMs: number };
}

function credentials(): string[] {
  return [
    '--username',
    USER.username,
    '--password',
    USER.password,
    '--admin-username',
    ADMIN.username,
    '--admin-password',
    ADMIN.password,
  ];
}

/**
 * Times a full default conform run (every check, default concurrency and examples; a fixed
 * seed so runs compare) against `apiBase`, with a JSON report to read its request count from.
 */
export function timeConformRun(apiBase: string, reportFile: string): Promise<ConformRun> {
  return timeCli(
    [
      CLI,
      'conform',
      apiBase,
      ...credentials(),
      '--seed',
      '1',
      '--reporter',
      'json',
      '--output',
      reportFile,
    ],
    reportFile,
  );
}

/**
 * Whether `apikit conform` has a fuzz mode (`--fuzz N`), read from its help.
 */
export async function fuzzModeAvailable(): Promise<boolean> {
  const help = await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, [CLI, 'conform', '--help'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const untrack = track(child);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', () => {
      clearTimeout(timer);
      untrack();
      resolve(out);
    });
    child.once('error', () => resolve(''));
  });
  return /--fuzz\b/.test(help);
}

/**
 * Times `apikit conform --fuzz-only --fuzz N` (N generated and broken requests per operation,
 * default fuzz concurrency) against `apiBase`.
 */
export function timeFuzzRun(
  apiBase: string,
  perOperation: number,
  reportFile: string,
): Promise<ConformRun> {
  return timeCli(
    [
      CLI,
      'conform',
      apiBase,
      ...credentials(),
      '--seed',
      '1',
      '--fuzz-only',
      '--fuzz',
      String(perOperation),
      '--reporter',
      'json',
      '--output',
      reportFile,
    ],
    reportFile,
  );
}

function timeCli(args: string[], reportFile: string): Promise<ConformRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const untrack = track(child);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr = (stderr + c).slice(-4000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), CONFORM_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      untrack();
      reject(error);
    });
    child.once('exit', (code) => {
      const wallMs = performance.now() - started;
      clearTimeout(timer);
      untrack();
      readFile(reportFile, 'utf8').then(
        (text) => {
          const { summary } = JSON.parse(text) as {
            summary?: {
              requests?: number;
              durationMs?: number;
              results?: { failed?: number };
              fuzz?: { requests?: number; durationMs?: number };
            };
          };
          const fuzz = summary?.fuzz;
          resolve({
            wallMs,
            exitCode: code,
            ...(summary?.requests !== undefined ? { requests: summary.requests } : {}),
            ...(summary?.durationMs !== undefined ? { runnerMs: summary.durationMs } : {}),
            ...(summary?.results?.failed !== undefined ? { failed: summary.results.failed } : {}),
            ...(fuzz?.requests !== undefined && fuzz.durationMs
              ? { fuzz: { requests: fuzz.requests, durationMs: fuzz.durationMs } }
              : {}),
          });
        },
        () =>
          code === 0 || code === 1
            ? resolve({ wallMs, exitCode: code })
            : reject(
                new Error(
                  `apikit conform exited with ${code ?? 'a signal'}: ${stderr.trim().split('\n').pop()?.slice(0, 300) ?? ''}`,
                ),
              ),
      );
    });
  });
}
