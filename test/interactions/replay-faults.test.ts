import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/run-conformance.js';
import type { InteractionFile } from '../../spec/interactions/interaction-file.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-injection/fault-proxy.js';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../start-test-server.js';
import { recordFrontendScenario } from './frontend-scenario.js';
import { interactionFaults } from './interaction-faults.js';

let server: TestServer;
let proxy: FaultProxy;
let file: InteractionFile;

beforeAll(async () => {
  [server, file] = await Promise.all([startTestServer(), recordFrontendScenario()]);
  proxy = await startFaultProxy(server.url, {
    username: 'admin@example.com',
    password: TEST_ADMIN_PASSWORD,
  });
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

describe('the replay of recorded interactions against broken targets', () => {
  it.each(interactionFaults)('$name', async (fault) => {
    proxy.use(fault.hooks);
    const report = await runConformance({
      baseUrl: `${proxy.url}/api/v1`,
      username: 'user@example.com',
      password: TEST_USER_PASSWORD,
      adminUsername: 'admin@example.com',
      adminPassword: TEST_ADMIN_PASSWORD,
      interactions: file,
      seed: 1,
    });
    const failed = report.results.filter((r) => r.status === 'failed');
    if (!fault.caught) {
      expect(failed).toEqual([]);
      return;
    }
    const { key, test, says } = fault.caught;
    const named = failed.filter((r) => {
      const found = /interaction "([^"]+)"/.exec(r.message)?.[1] ?? '';
      return key.test(found) && r.message.includes(test) && says.test(`${r.message} ${r.actual}`);
    });
    expect(named, failed.map((r) => r.message).join('\n') || 'nothing failed').not.toEqual([]);
    expect(named[0]?.curl).toMatch(/^curl -i -X /);
    expect(report.consumer?.interactions.failed).toBeGreaterThan(0);
  });
});
