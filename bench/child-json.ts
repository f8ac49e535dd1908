import { spawn } from 'node:child_process';
import { track } from './start-process.js';

/**
 * Runs `node script ...args` and resolves with the last line it printed on stdout, parsed as
 * JSON. Rejects on a non-zero exit, a missing JSON line, or after `timeoutMs` (it is killed).
 *
 * @example
 * const r = await runChildJson<{ us: number }>('dist/bench/msw-handler-cost.js', ['1000'], 60_000);
 */
export function runChildJson<T>(script: string, args: string[], timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    const untrack = track(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      untrack();
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      untrack();
      const line = stdout.trim().split('\n').pop() ?? '';
      if (code === 0 && line.startsWith('{')) {
        try {
          return resolve(JSON.parse(line) as T);
        } catch {
          // Falls through to the rejection below.
        }
      }
      reject(
        new Error(
          `${script} ended with ${signal ?? `code ${code}`}: ${stderr.trim().slice(-500) || line}`,
        ),
      );
    });
  });
}
