import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../../spec/spec-path.js';

/** A long-running `apikit` command (mock, proxy, serve) started by a test. */
export interface RunningCli {
  /** The first URL it printed on a line saying `listening on`. */
  url: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with stdout once `pattern` shows up in it (bounded by `timeoutMs`). */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGTERM, then SIGKILL after `timeoutMs`; resolves with how it exited. Idempotent. */
  stop(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Spawns the built CLI (bin/apikit.js, as users run it) and resolves once it prints
 * `listening on <url>`; rejects with its output when it exits first or stays silent for
 * `timeoutMs`. Always `stop()` it in afterAll.
 */
export function startCli(args: string[], timeoutMs = 60_000): Promise<RunningCli> {
  const child = spawn(process.execPath, [join(packageRoot, 'bin', 'apikit.js'), ...args], {
    cwd: packageRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString('utf8');
    for (const wake of waiters) wake();
  });
  child.stderr!.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.removeListener('exit', killOnExit));

  const waitForOutput = (pattern: RegExp, ms = 15_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (pattern.test(out)) {
          finish();
          resolve(out);
        }
      };
      const finish = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      const timer = setTimeout(() => {
        finish();
        reject(
          new Error(
            `no ${pattern} within ${ms} ms\n--- stdout ---\n${out}\n--- stderr ---\n${err}`,
          ),
        );
      }, ms);
      waiters.add(check);
      void exited.then(() => {
        if (!waiters.has(check)) return;
        finish();
        reject(
          new Error(`it exited before ${pattern}\n--- stdout ---\n${out}\n--- stderr ---\n${err}`),
        );
      });
      check();
    });

  let stopping: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | undefined;
  const stop = (ms = 10_000) =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((done) => (timer = setTimeout(() => done('late'), ms)));
      const first = await Promise.race([exited, late]);
      clearTimeout(timer);
      if (first !== 'late') return first;
      child.kill('SIGKILL');
      await exited;
      return { code: null, signal: 'SIGKILL' as NodeJS.Signals };
    })());

  return waitForOutput(/listening on (http:\/\/\S+)/, timeoutMs).then(
    (text) => ({
      url: /listening on (http:\/\/\S+)/.exec(text)![1]!,
      child,
      stdout: () => out,
      stderr: () => err,
      waitForOutput,
      stop,
    }),
    async (error: unknown) => {
      await stop(2_000);
      throw error;
    },
  );
}

/**
 * The JSON log lines of `cli` whose `msg` is `msg`, once one has been written (log lines are
 * batched per turn of the event loop): waits up to 5 s, then answers what there is.
 */
export async function jsonLogLines(
  cli: RunningCli,
  msg: string,
): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = cli
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === msg);
    if (found.length > 0 || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
