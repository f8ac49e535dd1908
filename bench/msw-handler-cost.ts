/**
 * In-process cost of the MSW handlers, no socket: `node dist/bench/msw-handler-cost.js N`
 * sends `GET /api/v1/users/1` (admin token) through `createMockApi(...).handlers` with msw's
 * `getResponse` (what `apikit mock` and setupServer do per request) and prints µs per request
 * as JSON: one at a time (latency; no timer without configured latency, decision 0029), and 50 in
 * flight (the amortised CPU cost), the latter with and without the mocks' response validation.
 * Run by the bench as a child process.
 */
import { getResponse } from 'msw';
import { createMockApi } from '../mocks/create-mock-api.js';
import { ADMIN } from './subjects/reference-server-subject.js';

const BASE = 'http://mock.bench';
const IN_FLIGHT = 50;

export interface MswHandlerCost {
  /** Requests per round (3 rounds, the median is reported). */
  requests: number;
  /** One request at a time, response validation on (the mocks' default). */
  usSequential: number;
  /** 50 in flight: wall time ÷ requests, response validation on. */
  usConcurrent: number;
  /** 50 in flight, response validation off. */
  usConcurrentWithoutValidation: number;
}

async function mockWithToken(validateResponses: boolean) {
  // Few PBKDF2 iterations: the one login is setup, not what is measured.
  const mock = createMockApi({ baseUrl: BASE, validateResponses, passwordIterations: 1000 });
  await mock.ready;
  const login = await getResponse(
    mock.handlers,
    new Request(`${BASE}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }),
    }),
  );
  const { accessToken } = (await login?.json()) as { accessToken: string };
  const headers = { Authorization: `Bearer ${accessToken}` };
  return async () => {
    const response = await getResponse(
      mock.handlers,
      new Request(`${BASE}/api/v1/users/1`, { headers }),
    );
    if (response?.status !== 200) throw new Error(`GET /users/1 answered ${response?.status}`);
    await response.arrayBuffer();
  };
}

/** Median of 3 rounds of `n` requests, `inFlight` at a time, in µs per request. */
async function cost(once: () => Promise<void>, n: number, inFlight: number): Promise<number> {
  const round = async () => {
    for (let done = 0; done < n; done += inFlight)
      await Promise.all(Array.from({ length: Math.min(inFlight, n - done) }, once));
  };
  await round(); // warm up the JIT and the caches
  const rounds: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await round();
    rounds.push(((performance.now() - started) * 1000) / n);
  }
  return rounds.sort((a, b) => a - b)[1] as number;
}

const n = Math.max(IN_FLIGHT, Math.min(100_000, Number(process.argv[2] ?? 2000) || 2000));
const validated = await mockWithToken(true);
const unvalidated = await mockWithToken(false);
const result: MswHandlerCost = {
  requests: n,
  usSequential: await cost(validated, Math.min(n, 500), 1),
  usConcurrent: await cost(validated, n, IN_FLIGHT),
  usConcurrentWithoutValidation: await cost(unvalidated, n, IN_FLIGHT),
};
process.stdout.write(JSON.stringify(result) + '\n');
