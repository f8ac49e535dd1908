import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root, where `bin/apikit.js` and the built `dist/` live. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `apikit serve` running as a child process. */
export interface CliServer {
  /** e.g. `http://127.0.0.1:41234` */
  url: string;
  /** `${url}/api/v1` */
  api: string;
  child: ChildProcess;
  /** Resolves when the process has exited (at once if it already has). */
  exited: Promise<void>;
  /** Sends `signal` and waits for the exit; a no-op on a process that is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Everything the process wrote to stderr so far (JSON log lines with `logs: true`). */
  stderr(): string;
}

/** Options of {@link startCliServer}. */
export interface CliServerOptions {
  /** The JSON store file (`--db`). */
  dbFile: string;
  /** The port to listen on (default 0: a free one); a restart on the same address passes it. */
  port?: number;
  /** Extra environment (APIKIT_* passwords, the signing secret). */
  env?: Record<string, string>;
  /** Extra CLI arguments after the defaults. */
  args?: string[];
  /** How long the server may take to print its address (ms, default 20 s). */
  startTimeoutMs?: number;
  /** JSON request log lines on stderr instead of none (default false). */
  logs?: boolean;
}

/**
 * Starts the built CLI (`node bin/apikit.js serve --port 0 --log-format off`, rate limits off)
 * and resolves once it prints the address it listens on. Needs `npm run build` first. The
 * caller owns the process: kill it in `afterAll` even when a test fails.
 *
 * @example
 * const server = await startCliServer({ dbFile: '/tmp/x/db.json', env: { APIKIT_JWT_SECRET } });
 * await server.kill('SIGKILL');
 */
export async function startCliServer(options: CliServerOptions): Promise<CliServer> {
  const cli = `${REPO_ROOT}dist/bin/cli.js`;
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`);
  const { dbFile, env = {}, args = [], startTimeoutMs = 20_000, logs = false } = options;
  const port = String(options.port ?? 0);
  const child = spawn(
    process.execPath,
    [
      'bin/apikit.js',
      'serve',
      '--port',
      port,
      '--db',
      dbFile,
      '--log-format',
      logs ? 'json' : 'off',
      '--rate-limit',
      '0',
      '--login-rate-limit',
      '0',
      ...args,
    ],
    { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => fail(`printed no address within ${startTimeoutMs} ms`),
      startTimeoutMs,
    );
    function fail(why: string) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`apikit serve ${why}\nstdout: ${stdout}\nstderr: ${stderr}`));
    }
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('error', (error) => fail(`could not be spawned: ${error.message}`));
    child.once('exit', (code, signal) => fail(`exited early (code ${code}, signal ${signal})`));
  });
  return {
    url,
    api: `${url}/api/v1`,
    child,
    exited,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
    stderr: () => stderr,
  };
}
