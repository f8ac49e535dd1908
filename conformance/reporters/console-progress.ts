import type { ProgressEvent } from '../run-conformance.js';

/** Where progress goes: a stream, told whether it is a terminal and how wide. */
export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ConsoleProgressOptions {
  /** Least time between two writes: redraws on a terminal (100 ms), lines otherwise (10 s). */
  intervalMs?: number;
  /** Also write while no event arrives (a long check), every second or intervalMs (default true). */
  heartbeat?: boolean;
  now?: () => number;
}

/**
 * A progress handler for `runConformance({ onProgress })`: on a terminal one line redrawn in
 * place (i/N and the current check, requests, results, failures, elapsed time); elsewhere (CI
 * logs) a plain line when a check starts and at most every ten seconds within one, so a long
 * run never floods the log. Writes to stderr in the CLI, leaving stdout to the reports.
 *
 * @example
 * await runConformance({ baseUrl, onProgress: createConsoleProgress(process.stderr) });
 */
export function createConsoleProgress(
  stream: ProgressStream,
  options: ConsoleProgressOptions = {},
): (event: ProgressEvent) => void {
  const tty = Boolean(stream.isTTY);
  const interval = options.intervalMs ?? (tty ? 100 : 10_000);
  const now = options.now ?? Date.now;
  let started = now();
  let check = '';
  let index = 0;
  let total = 0;
  let requests = 0;
  let failures = 0;
  let results = 0;
  let last = -Infinity;
  let drawn = false;
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  const line = () => {
    const step = total > 0 ? `${index}/${total} ${check}` : 'starting';
    const elapsed = Math.round((now() - started) / 1000);
    return `conform: ${step} · ${requests} requests · ${results} results · ${failures} failed · ${elapsed} s`;
  };
  const draw = (force: boolean) => {
    const at = now();
    if (!force && at - last < interval) return;
    last = at;
    if (tty) {
      const width = Math.max(20, (stream.columns || 80) - 1);
      stream.write(`\r\x1b[2K${line().slice(0, width)}`);
      drawn = true;
    } else stream.write(`${line()}\n`);
  };

  return (event) => {
    switch (event.kind) {
      case 'start':
        started = now();
        stream.write(`conform: ${event.operations} operations, ${event.checks.length} checks\n`);
        if (options.heartbeat ?? true) {
          heartbeat = setInterval(() => draw(tty), tty ? 1000 : interval);
          heartbeat.unref();
        }
        break;
      case 'check':
        check = event.check;
        index = event.index + 1;
        total = event.total;
        draw(true);
        break;
      case 'result':
        requests = event.requests;
        results++;
        if (event.result.status === 'failed') failures++;
        draw(false);
        break;
      case 'wait':
        // Always on its own line: a pause of up to 30 s must say why.
        if (tty && drawn) stream.write('\r\x1b[2K');
        stream.write(`conform: ${event.reason} (${event.seconds} s)\n`);
        drawn = false;
        break;
      case 'cleanup':
        clearInterval(heartbeat);
        if (tty && drawn) stream.write('\r\x1b[2K');
        stream.write(
          `conform: ${requests} requests · ${results} results · ${failures} failed; cleaning up\n`,
        );
        break;
    }
  };
}
