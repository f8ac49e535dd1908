import { freePort } from '../../node-runtime/start-prism.js';
import { startProcess, type ProcessOptions, type RunningProcess } from '../start-process.js';

/** A server under load: where it listens, how to authenticate, how to stop it. */
export interface Subject {
  /** For the table: "apikit serve", "Express 5 hello". */
  name: string;
  process: RunningProcess;
  /** Its origin, `http://127.0.0.1:PORT`. */
  url: string;
  /** Headers every request to it carries (a bearer token where it wants one). */
  headers: Record<string, string>;
  stop(): Promise<void>;
}

/** `NODE_ENV=production` for every subject (Express, json-server's beta and the server). */
export const PRODUCTION_ENV = { NODE_ENV: 'production' };

const START_ATTEMPTS = 3;

/**
 * Starts a process on a port that was free a moment ago, and tries another when someone took
 * it in between (the subjects without a port 0 need one picked for them).
 */
export async function startOnFreePort(
  options: (port: number) => ProcessOptions,
): Promise<RunningProcess> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await startProcess(options(port));
    } catch (error) {
      const taken = error instanceof Error && /EADDRINUSE/.test(error.message);
      if (!taken || attempt >= START_ATTEMPTS) throw error;
    }
  }
}

/**
 * Logs in through the contract's login operation and returns the bearer headers.
 *
 * @example
 * const headers = await bearerHeaders('http://127.0.0.1:3000/api/v1', 'admin@example.com', 'admin-demo-password');
 */
export async function bearerHeaders(
  apiBase: string,
  username: string,
  password: string,
): Promise<Record<string, string>> {
  const response = await fetch(`${apiBase}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await response.json()) as { accessToken?: string };
  if (response.status !== 200 || !body.accessToken)
    throw new Error(`login at ${apiBase} answered ${response.status}`);
  return { Authorization: `Bearer ${body.accessToken}` };
}

/**
 * Starts an apikit CLI command (`serve`, `mock`) as production runs it, on a free port, and
 * logs in as `admin`; the process is stopped when the login fails. With `cpuProfileDir`, node
 * writes a V8 CPU profile named `<profileName>-<time>.cpuprofile` there when it exits.
 *
 * @example
 * const mock = await startLoggedIn('apikit mock', (port) => [cli, 'mock', '--port', String(port)], admin);
 */
export async function startLoggedIn(
  name: string,
  cliArgs: (port: number) => string[],
  admin: { username: string; password: string },
  profile?: { dir: string; name: string },
): Promise<Subject> {
  const nodeArgs = profile
    ? [
        '--cpu-prof',
        '--cpu-prof-dir',
        profile.dir,
        '--cpu-prof-name',
        `${profile.name}-${Date.now()}.cpuprofile`,
      ]
    : [];
  const running = await startOnFreePort((port) => ({
    name,
    command: process.execPath,
    args: [...nodeArgs, ...cliArgs(port)],
    env: PRODUCTION_ENV,
    port,
    readyPath: '/healthz',
    readyStatus: 200,
  }));
  try {
    const headers = await bearerHeaders(`${running.url}/api/v1`, admin.username, admin.password);
    return { name, process: running, url: running.url, headers, stop: running.stop };
  } catch (error) {
    await running.stop();
    throw error;
  }
}
