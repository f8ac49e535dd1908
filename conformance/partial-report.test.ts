import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_USER_PASSWORD, type TestServer } from '../test/start-test-server.js';
import { renderConsoleSummary } from './reporters/console-reporter.js';
import { renderHtmlReport } from './reporters/html-reporter.js';
import { runConformance } from './run-conformance.js';

let server: TestServer | undefined;
afterAll(() => server?.ctx.repo.close());

describe('a run that cannot finish', () => {
  it('resolves with what ran, marked incomplete, when the target stops answering midway', async () => {
    server = await startTestServer();
    const report = await runConformance({
      baseUrl: server.api,
      username: 'user@example.com',
      password: TEST_USER_PASSWORD,
      seed: 3,
      maxExamples: 1,
      onProgress: (event) => {
        // The target goes away when the third check starts: no more connections, no answers.
        if (event.kind === 'check' && event.index === 2) {
          server!.server.close();
          server!.server.closeAllConnections();
        }
      },
    });
    expect(report.summary.incomplete).toMatch(
      /^the target stopped answering during \w+: .*(ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET)/,
    );
    expect(report.summary.results.total).toBeGreaterThan(0);
    expect(renderConsoleSummary(report)).toContain('The run did not finish: the target stopped');
    expect(renderHtmlReport(report)).toContain('The run did not finish: the target stopped');
  }, 60_000);

  it('stops at an abort, cleans up, and says it was interrupted', async () => {
    const target = await startTestServer();
    const controller = new AbortController();
    const report = await runConformance({
      baseUrl: target.api,
      username: 'user@example.com',
      password: TEST_USER_PASSWORD,
      seed: 4,
      maxExamples: 1,
      signal: controller.signal,
      onProgress: (event) => {
        if (event.kind === 'check' && event.index === 3) controller.abort('SIGTERM');
      },
    });
    expect(report.summary.incomplete).toBe('interrupted (SIGTERM)');
    expect(report.summary.checks.length).toBeGreaterThan(4);
    const res = await fetch(`${target.api}/users?size=100`, {
      headers: { Authorization: `Bearer ${target.adminToken}` },
    });
    const page = (await res.json()) as { content: { email: string }[] };
    expect(page.content.filter((u) => u.email.startsWith('conform-'))).toEqual([]);
    await target.close();
  }, 60_000);
});
