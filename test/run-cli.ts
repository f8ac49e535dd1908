import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../spec/spec-path.js';

/** What a finished `apikit` process said. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built `apikit` CLI (bin/apikit.js, as users run it) in a child process and collects
 * its output. Tests use the real executable so that argument parsing and exit codes are covered.
 */
export function runCli(
  args: string[],
  options: { timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(packageRoot, 'bin', 'apikit.js'), ...args], {
      cwd: packageRoot,
      ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 20_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
