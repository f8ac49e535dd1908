import { freePort } from '../../mocks/prism/start-prism.js';
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
