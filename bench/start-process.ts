import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';

/** Every process the bench started and has not seen exit: killed on exit, error or SIGINT. */
const live = new Set<ChildProcess>();
/** Children spawned `detached`: each leads a process group, and signals go to the group. */
const groupLeaders = new WeakSet<ChildProcess>();

/**
 * Registers a child so that {@link killAllNow} reaches it; returns the function that
 * unregisters it. Children started with `detached` lead their own process group, and the whole
 * group is killed (Prism runs as a grandchild of `apikit mock --engine prism`).
 */
export function track(child: ChildProcess): () => void {
  live.add(child);
  return () => live.delete(child);
}

/** SIGKILL to every process the bench started that is still running (synchronous: exit hook). */
export function killAllNow(): void {
  for (const child of live) signalGroup(child, 'SIGKILL');
  live.clear();
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    // A detached child leads a process group of its own: -pid reaches its children too.
    process.kill(groupLeaders.has(child) ? -child.pid : child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** What {@link startProcess} runs and how it knows the process is ready. */
export interface ProcessOptions {
  /** For messages: "apikit serve", "json-server 0.17". */
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
  /** Polled until it answers: the origin is `http://127.0.0.1:${port}`. */
  port: number;
  readyPath: string;
  readyHeaders?: Record<string, string>;
  /** Status that means ready; default: any answer below 500. */
  readyStatus?: number;
  /** Give up after this long (default 60 s). */
  timeoutMs?: number;
  /** Pause between two readiness probes (default 10 ms; cold starts poll faster). */
  pollMs?: number;
}

/** A process started by the bench and listening. */
export interface RunningProcess {
  name: string;
  /** `http://127.0.0.1:PORT` */
  url: string;
  pid: number;
  /** Milliseconds from spawn to the first ready answer. */
  startMs: number;
  /** What the process printed (stdout and stderr, the tail). */
  output(): string;
  /** Resident set size now and its peak so far, in MB (Linux /proc; undefined elsewhere). */
  memory(): { rssMb: number; peakRssMb: number } | undefined;
  /** SIGTERM to its group, SIGKILL after 5 s; resolves when it has exited. Idempotent. */
  stop(): Promise<void>;
}

const OUTPUT_LIMIT = 20_000;

/**
 * Spawns a subject as the leader of its own process group and resolves once `readyPath`
 * answers. The process is killed (group and all) when it fails to get ready, when `stop()` is
 * called, and when the bench exits for any reason.
 *
 * @example
 * const p = await startProcess({ name: 'hello', command: process.execPath, args: ['hello.js', '4000'], port: 4000, readyPath: '/' });
 * await p.stop();
 */
export async function startProcess(options: ProcessOptions): Promise<RunningProcess> {
  const started = performance.now();
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  groupLeaders.add(child);
  const untrack = track(child);
  let output = '';
  const keep = (chunk: string) => {
    output = (output + chunk).slice(-OUTPUT_LIMIT);
  };
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => {
      untrack();
      resolve();
    });
  });
  child.once('error', (error) => keep(`\nspawn error: ${error.message}\n`));
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      signalGroup(child, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      // The group may outlive its leader (a grandchild): make sure nothing is left.
      signalGroup(child, 'SIGKILL');
    })();
    return stopping;
  };
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = started + (options.timeoutMs ?? 60_000);
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) {
      throw new Error(`${options.name} exited before it was ready: ${firstError(output)}`);
    }
    if (performance.now() > deadline) {
      await stop();
      throw new Error(
        `${options.name} was not ready within ${options.timeoutMs ?? 60_000} ms:\n${output.slice(-2000)}`,
      );
    }
    const status = await probe(url + options.readyPath, options.readyHeaders ?? {});
    const ready =
      status !== undefined &&
      (options.readyStatus === undefined ? status < 500 : status === options.readyStatus);
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 10));
  }
  const startMs = performance.now() - started;
  const pid = child.pid as number;
  return {
    name: options.name,
    url,
    pid,
    startMs,
    output: () => output,
    memory: () => processMemory(pid),
    stop,
  };
}

/** The line of a process's output that names what went wrong (else its last line). */
export function firstError(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const named = lines.find((line) => /\b(\w*Error|E[A-Z]{3,})\b/.test(line));
  return (named ?? lines.at(-1) ?? 'no output').slice(0, 300);
}

/**
 * The status of one GET, or undefined when nothing answers (yet). A fresh connection each time,
 * bounded by a 1 s timeout.
 */
export function probe(
  url: string,
  headers: Record<string, string> = {},
): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = request(url, { headers, agent: false, timeout: 1_000 }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode));
      res.once('error', () => resolve(undefined));
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(undefined));
    req.end();
  });
}

/** VmRSS and VmHWM of a process, in MB; undefined where /proc is not there. */
export function processMemory(pid: number): { rssMb: number; peakRssMb: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
    const rss = kb('VmRSS');
    const peak = kb('VmHWM');
    if (!Number.isFinite(rss) || !Number.isFinite(peak)) return undefined;
    return { rssMb: rss / 1024, peakRssMb: peak / 1024 };
  } catch {
    return undefined;
  }
}
