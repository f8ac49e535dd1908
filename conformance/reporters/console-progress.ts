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

type PolicyEvent = { policy: string; quota?: number; windowSeconds?: number };

const policyName = (e: PolicyEvent) => (e.policy ? `its "${e.policy}" policy` : 'its rate limit');
const rate = (e: PolicyEvent) =>
  `${e.quota ?? '?'} requests per ${e.windowSeconds ?? 60} s`.replace(/^\? requests/, 'requests');
const windowOf = (e: PolicyEvent) =>
  `the target's ${e.policy ? `"${e.policy}" ` : ''}window to reset (${rate(e)})`;

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
  let paced: Extract<ProgressEvent, { kind: 'pace' }> | undefined;
  let announced = false;

  const line = () => {
    const step = total > 0 ? `${index}/${total} ${check}` : 'starting';
    const elapsed = Math.round((now() - started) / 1000);
    const left = paced ? Math.ceil((paced.untilMs - now()) / 1000) : 0;
    const waiting = paced && left > 0 ? ` · waiting ${left} s for ${windowOf(paced)}` : '';
    return `conform: ${step} · ${requests} requests · ${results} results · ${failures} failed · ${elapsed} s${waiting}`;
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
      case 'policy':
        if (tty && drawn) stream.write('\r\x1b[2K');
        stream.write(policyLine(event));
        drawn = false;
        break;
      case 'pace': {
        paced = event;
        if (tty && drawn) stream.write('\r\x1b[2K');
        if (!announced) {
          // Said once: why the run is slower than it could be, and how to make it faster.
          announced = true;
          stream.write(paceAnnouncement(event));
        }
        const seconds = Math.max(1, Math.ceil((event.untilMs - now()) / 1000));
        // On a terminal the progress line counts the wait down; a log gets one line per wait.
        if (tty) draw(true);
        else
          stream.write(
            `conform: waiting ${seconds} s for ${windowOf(event)} (${event.requests} requests so far)\n`,
          );
        break;
      }
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

/** The line of a rate-limit policy the target announced. */
function policyLine(event: Extract<ProgressEvent, { kind: 'policy' }>): string {
  return `conform: the target announces a rate limit${event.policy ? ` "${event.policy}"` : ''}: ${rate(event)} (RateLimit-Policy); the run paces itself to it\n`;
}

/** Said once: why the run is slower than it could be, and how to make it faster. */
function paceAnnouncement(event: Extract<ProgressEvent, { kind: 'pace' }>): string {
  return `conform: this run needs more requests than ${policyName(event)} allows (${rate(event)}), so it waits for the target's window to reset instead of meeting 429s; each window adds up to ${event.windowSeconds ?? 60} s. Faster: start the target without limits (reference server: --rate-limit 0 --login-rate-limit 0) or narrow the run (--checks, --include)\n`;
}
