import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';

/** How to run Prism: a mock of a description, or a validating proxy in front of a server. */
export interface StartPrismOptions {
  /** The OpenAPI description Prism serves or validates against (a file path). */
  specPath: string;
  /** `mock` answers from the description; `proxy` forwards to `upstream` and validates. */
  mode?: 'mock' | 'proxy';
  /** The server a proxy forwards to, e.g. `http://127.0.0.1:3000` (proxy mode only). */
  upstream?: string;
  /** Mock mode: generate bodies from the schemas (json-schema-faker) instead of examples. */
  dynamic?: boolean;
  /** Mock mode with `dynamic`: a seed so that generated bodies repeat from run to run. */
  seed?: string | number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Port to listen on (default: a free one, picked before starting since Prism has no port 0). */
  port?: number;
  /** How long to wait for Prism to say it is listening (default 30 s). */
  startTimeoutMs?: number;
  /** How long `close()` waits after SIGTERM before SIGKILL (default 5 s). */
  killTimeoutMs?: number;
  /** Extra CLI arguments passed through to Prism as they are (e.g. `['--errors']`). */
  extraArgs?: string[];
}

/** A running Prism. */
export interface PrismServer {
  /** Its origin, e.g. `http://127.0.0.1:41234` (the description's paths hang directly below it). */
  url: string;
  /** The port it listens on. */
  port: number;
  /** Its process id. */
  pid: number;
  /** Everything Prism printed so far (stdout and stderr), for diagnostics. */
  output(): string;
  /** Stops it (SIGTERM, then SIGKILL after `killTimeoutMs`) and waits for it to exit. Idempotent. */
  close(): Promise<void>;
}

/** Prism could not be started: its own output is in the message. */
export class PrismStartError extends Error {
  override name = 'PrismStartError';
}

/** Ports picked by `freePort` are retried this often when someone else takes them first. */
const PORT_ATTEMPTS = 5;
/** Prism's output kept for diagnostics (the tail, when it logs a lot). */
const OUTPUT_LIMIT = 64_000;

/**
 * Loaded into Prism's process before its CLI (`node --import`): Prism exits as soon as its
 * parent is gone, so that a Prism outlives no apikit, not even one killed with SIGKILL, whose
 * `exit` handlers never run (decision 0099). A data: URL, so the package ships no extra file.
 */
const PARENT_WATCH =
  'data:text/javascript,' +
  encodeURIComponent(
    'const parent = process.ppid;' +
      'setInterval(() => { if (process.ppid !== parent) process.exit(143); }, 250).unref();',
  );

/**
 * The path of Prism's CLI entry, resolved from the installed `@stoplight/prism-cli` package
 * (its `bin` field), never from PATH.
 */
export function prismBinPath(): string {
  const require = createRequire(import.meta.url);
  let manifestPath: string;
  try {
    manifestPath = require.resolve('@stoplight/prism-cli/package.json');
  } catch (error) {
    // Not a problem of the description being served: say what is missing (decision 0099).
    if ((error as { code?: string }).code === 'MODULE_NOT_FOUND')
      throw new PrismStartError('@stoplight/prism-cli is not installed');
    throw error;
  }
  const manifest = require(manifestPath) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.['prism'];
  if (!bin) throw new PrismStartError('@stoplight/prism-cli declares no `prism` bin');
  return resolve(dirname(manifestPath), bin);
}

/** A port that was free a moment ago on `host` (bind port 0, read it, release it). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port: 0, host }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolvePort(port) : reject(new Error('no port was assigned'))));
    });
  });
}

/**
 * Starts the Prism CLI (`prism mock` or `prism proxy`) as a child process and resolves once it
 * says it is listening. Without `port` it picks a free one, and retries with another when the
 * port was taken in between.
 *
 * @example
 * const prism = await startPrism({ specPath: 'petstore.yaml', dynamic: true });
 * try {
 *   await fetch(`${prism.url}/pets`);
 * } finally {
 *   await prism.close();
 * }
 */
export async function startPrism(options: StartPrismOptions): Promise<PrismServer> {
  const mode = options.mode ?? 'mock';
  if (mode === 'proxy' && !options.upstream)
    throw new PrismStartError('proxy mode needs an upstream URL');
  if (mode === 'mock' && options.upstream)
    throw new PrismStartError('an upstream is only for proxy mode');
  const attempts = options.port === undefined ? PORT_ATTEMPTS : 1;
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort(options.host ?? '127.0.0.1'));
    try {
      return await launch(options, mode, port);
    } catch (error) {
      const taken = error instanceof PrismStartError && /EADDRINUSE/.test(error.message);
      if (!taken || attempt >= attempts) throw error;
    }
  }
}

function launch(
  options: StartPrismOptions,
  mode: 'mock' | 'proxy',
  port: number,
): Promise<PrismServer> {
  const host = options.host ?? '127.0.0.1';
  const args = ['--import', PARENT_WATCH, prismBinPath(), mode, '-h', host, '-p', String(port)];
  if (mode === 'mock' && options.dynamic) args.push('--dynamic');
  if (mode === 'mock' && options.seed !== undefined) args.push('--seed', String(options.seed));
  args.push(...(options.extraArgs ?? []), options.specPath);
  if (mode === 'proxy') args.push(options.upstream!);

  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Prism colours its log through chalk; plain text is easier to match and to read in errors.
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  let output = '';
  // Never leave a Prism behind when this process exits without closing it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((done) =>
    child.once('exit', () => {
      process.removeListener('exit', killOnExit);
      done();
    }),
  );
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}`;

  return new Promise<PrismServer>((resolveServer, reject) => {
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop(child, exited, options.killTimeoutMs).then(() =>
        reject(
          new PrismStartError(
            `prism ${mode} did not start: ${why}\n--- prism output ---\n${output}`,
          ),
        ),
      );
    };
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
      // Prism 5 logs "Prism is listening on http://127.0.0.1:PORT" once the server is up.
      if (!settled && /is listening on/i.test(output)) {
        settled = true;
        clearTimeout(timer);
        let closing: Promise<void> | undefined;
        resolveServer({
          url,
          port,
          pid: child.pid!,
          output: () => output,
          close: () => (closing ??= stop(child, exited, options.killTimeoutMs)),
        });
      } else if (!settled && /EADDRINUSE/.test(output)) {
        fail(`port ${port} is in use (EADDRINUSE)`);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code, signal) => fail(`it exited (code ${code}, signal ${signal})`));
    const timer = setTimeout(
      () => fail(`it did not say it was listening within ${options.startTimeoutMs ?? 30_000} ms`),
      options.startTimeoutMs ?? 30_000,
    );
  });
}

/** SIGTERM, SIGKILL after a bound, and wait for the exit. */
async function stop(child: ChildProcess, exited: Promise<void>, killTimeoutMs = 5_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const killed = new Promise<'timeout'>((done) => {
    timer = setTimeout(() => done('timeout'), killTimeoutMs);
  });
  if ((await Promise.race([exited, killed])) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
  clearTimeout(timer);
}
