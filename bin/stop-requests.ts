/** Why a long-running command stops: a signal, or the `npx` / `npm exec` above it went away. */
export interface StopRequest {
  /** The signal it stands for (a parent gone is taken as SIGTERM). */
  signal: 'SIGINT' | 'SIGTERM';
  /** For messages and reports: `SIGTERM`, or `SIGTERM (parent process 4870 exited)`. */
  reason: string;
}

export interface StopRequestOptions {
  /** Take the parent process going away as SIGTERM (default: {@link watchesParent}). */
  watchParent?: boolean;
  /** How often the parent is looked at, in ms (default 250). */
  pollMs?: number;
  /** The parent's pid as of now (default: `process.ppid`, which Node reads afresh each time). */
  parentPid?: () => number;
  /** The parent to outlive no longer (default: the parent when this module was loaded). */
  startParentPid?: number;
}

/** How often the parent process is looked at by default (ms). */
const PARENT_POLL_MS = 250;
/** Read when the CLI loads: a parent that dies while a command starts is noticed too. */
const PARENT_AT_START = process.ppid;

/**
 * Whether a command watches its parent by default: when npm started it (`npx`, `npm exec`,
 * `npm run`: npm's run-script sets `npm_lifecycle_event`), since npm hands a SIGTERM only to
 * the `sh -c` between it and apikit, which dies without passing it on (decision 0099).
 * `APIKIT_STOP_WITH_PARENT=1` turns it on elsewhere, `=0` off.
 */
export function watchesParent(env: NodeJS.ProcessEnv = process.env): boolean {
  const forced = env.APIKIT_STOP_WITH_PARENT;
  if (forced === '1' || forced === '0') return forced === '1';
  return env.npm_lifecycle_event !== undefined;
}

/**
 * Calls `onStop` on every SIGINT and SIGTERM, and once when the parent process goes away
 * (its pid changes: this process was handed to another) unless a signal came first (the same
 * Ctrl-C or kill took the parent down). Returns a function that stops watching.
 *
 * @example
 * const unwatch = watchStopRequests(({ reason }) => console.error(`${reason}: stopping`));
 */
export function watchStopRequests(
  onStop: (request: StopRequest) => void,
  options: StopRequestOptions = {},
): () => void {
  let requested = false;
  const deliver = (request: StopRequest) => {
    requested = true;
    onStop(request);
  };
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => deliver({ signal, reason: signal });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let timer: NodeJS.Timeout | undefined;
  const parentPid = options.parentPid ?? (() => process.ppid);
  const first = options.startParentPid ?? PARENT_AT_START;
  // A parent of 1 (or none) is init already: there is nothing above to go away.
  if ((options.watchParent ?? watchesParent()) && first > 1) {
    timer = setInterval(() => {
      if (parentPid() === first) return;
      clearInterval(timer);
      if (!requested)
        deliver({ signal: 'SIGTERM', reason: `SIGTERM (parent process ${first} exited)` });
    }, options.pollMs ?? PARENT_POLL_MS);
    timer.unref();
  }
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    clearInterval(timer);
  };
}

/**
 * Resolves with the first stop request. The same signal again quits at once (exit 130 or 143;
 * `exit` handlers still run, so a Prism child is still killed): a second Ctrl-C. Another one
 * joins the stop under way: a harness that sends SIGTERM after its SIGINT still gets the
 * report.
 *
 * @example
 * const { reason } = await untilStopRequested();
 * console.error(`${reason}: draining`);
 */
export function untilStopRequested(options: StopRequestOptions = {}): Promise<StopRequest> {
  return new Promise((resolve) => {
    let first: StopRequest | undefined;
    watchStopRequests((request) => {
      if (!first) {
        first = request;
        resolve(request);
        return;
      }
      if (request.signal !== first.signal) return;
      process.stderr.write(`apikit: ${request.reason} again: quitting now\n`);
      process.exit(request.signal === 'SIGINT' ? 130 : 143);
    }, options);
  });
}
