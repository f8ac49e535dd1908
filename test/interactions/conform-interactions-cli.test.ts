// `apikit conform URL --interactions FILE`, through the CLI's own code (bin/cli.ts, not the
// built bundle): the replay alone, its reports, and a clear exit 2 for a file of another format.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../bin/cli.js';
import type { ConformanceReport } from '../../conformance/report.js';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../start-test-server.js';
import { recordFrontendScenario } from './frontend-scenario.js';

const dir = mkdtempSync(join(tmpdir(), 'apikit-interactions-cli-'));
let server: TestServer;

beforeAll(async () => {
  const [started, file] = await Promise.all([startTestServer(), recordFrontendScenario()]);
  server = started;
  writeFileSync(join(dir, 'interactions.json'), JSON.stringify(file, null, 2));
  writeFileSync(join(dir, 'v2.json'), JSON.stringify({ ...file, format: 'apikit-interactions/2' }));
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi
    .spyOn(process.stderr, 'write')
    .mockImplementation((chunk) => ((stderr += String(chunk)), true));
  const log = vi
    .spyOn(console, 'error')
    .mockImplementation((...a: unknown[]) => void (stderr += `${a.join(' ')}\n`));
  process.exitCode = undefined;
  try {
    await main(args);
    return { code: Number(process.exitCode ?? 0), stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
    log.mockRestore();
    process.exitCode = undefined;
  }
}

const credentials = [
  '--username',
  'user@example.com',
  '--password',
  TEST_USER_PASSWORD,
  '--admin-username',
  'admin@example.com',
  '--admin-password',
  TEST_ADMIN_PASSWORD,
];

describe('apikit conform --interactions', () => {
  it('replays the recording only, exit 0, with the consumer coverage in the JSON and HTML reports', async () => {
    const { code, stderr } = await cli([
      'conform',
      server.api,
      '--interactions',
      join(dir, 'interactions.json'),
      ...credentials,
      '--reporter',
      'json',
      '--reporter',
      'html',
      '--output',
      join(dir, 'reports/'),
    ]);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(
      readFileSync(join(dir, 'reports', 'report.json'), 'utf8'),
    ) as ConformanceReport;
    expect(report.summary.checks).toEqual(['consumer_interactions']);
    expect(report.consumer?.interactions.passed).toBe(report.consumer?.interactions.total);
    expect(report.consumer?.operations.map((o) => o.operationId)).toContain('createUserOrder');
    const html = readFileSync(join(dir, 'reports', 'report.html'), 'utf8');
    expect(html).toContain('<section id="consumer"><h2>Consumer coverage</h2>');
    expect(html).toContain('src/orders.test.tsx &gt; Orders &gt; places and cancels an order');
  }, 60_000);

  it('refuses a recording of another format version before the first request (exit 2)', async () => {
    const { code, stderr } = await cli([
      'conform',
      server.api,
      '--interactions',
      join(dir, 'v2.json'),
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/"apikit-interactions\/2", expected "apikit-interactions\/1"/);
  });
});
