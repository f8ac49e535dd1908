import { afterEach, describe, expect, it } from 'vitest';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../test/start-test-server.js';
import { runConformance, type ProgressEvent } from './run-conformance.js';

/**
 * Against the reference server's own limits (a 60 s fixed window, draft-8 headers), a run
 * paces itself rather than meeting a 429. A window is too long to sit out in a test: the run
 * is stopped as soon as it starts to wait, which also shows that a stop cuts the wait short.
 */

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function pacedRun(
  limits: { rateLimit?: number; loginRateLimit?: number },
  run: { checks: string[]; include: string[] },
) {
  server = await startTestServer(limits);
  const statuses: number[] = [];
  server.server.on('request', (_req, res) => res.on('finish', () => statuses.push(res.statusCode)));
  const events: ProgressEvent[] = [];
  const controller = new AbortController();
  const started = Date.now();
  const report = await runConformance({
    baseUrl: server.api,
    username: 'user@example.com',
    password: TEST_USER_PASSWORD,
    adminUsername: 'admin@example.com',
    adminPassword: TEST_ADMIN_PASSWORD,
    seed: 5,
    ...run,
    signal: controller.signal,
    onProgress: (event) => {
      events.push(event);
      if (event.kind === 'pace') controller.abort('stopped by the test');
    },
  });
  return { report, events, statuses, elapsedMs: Date.now() - started };
}

describe('a run against the reference server with its rate limits on', () => {
  it('waits for the login window instead of meeting a 429', async () => {
    // Five logins a minute: two by startTestServer, two by the run's session, then the login
    // cases of positive_data_acceptance: the second of them has to wait.
    const { report, events, statuses, elapsedMs } = await pacedRun(
      { loginRateLimit: 5 },
      { checks: ['positive_data_acceptance'], include: ['login'] },
    );
    expect(statuses).not.toContain(429);
    expect(events.filter((e) => e.kind === 'wait')).toEqual([]);
    const pace = events.find((e) => e.kind === 'pace');
    expect(pace).toMatchObject({ policy: 'login', quota: 5, windowSeconds: 60 });
    expect(
      events.filter((e) => e.kind === 'policy').map((e) => (e as { policy: string }).policy),
    ).toEqual(['login']);
    expect(report.summary.incomplete).toBe('interrupted (stopped by the test)');
    expect(report.summary.rateLimits).toEqual(
      expect.arrayContaining([{ policy: 'login', quota: 5, windowSeconds: 60 }]),
    );
    expect(elapsedMs).toBeLessThan(15_000);
  }, 30_000);

  it('counts the user token against its own budget and waits when it is spent', async () => {
    // Invalid bodies for createUser create nothing, so the cleanup has nothing to wait for.
    const { events, statuses } = await pacedRun(
      { rateLimit: 12 },
      { checks: ['negative_data_rejection'], include: ['createUser'] },
    );
    expect(statuses).not.toContain(429);
    expect(events.filter((e) => e.kind === 'wait')).toEqual([]);
    expect(events.find((e) => e.kind === 'pace')).toMatchObject({ policy: 'default', quota: 12 });
    // The user's 12 went out (with the run's setup requests, counted by address), no more. The
    // cases go side by side, so some are still in flight when pacing begins: the server's
    // count, once the run stopped, says what went out.
    expect(statuses.length).toBeGreaterThanOrEqual(12);
    expect(statuses.length).toBeLessThanOrEqual(12 + 4);
  }, 30_000);
});
