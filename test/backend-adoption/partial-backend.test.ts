// Issue 29's "done when": a backend team's own server midway (6 of the contract's operations,
// three planted bugs) checked with the CLI as its CI job would: a scoped run stays in its scope,
// missing operations are reported once each, a baseline round trip is green and a new bug turns
// it red, each planted bug is named, and a wrong base URL or token stops the run up front.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../conformance/report.js';
import { isDestructive } from '../../spec/apikit-extensions.js';
import { loadSpec } from '../../spec/load-spec.js';
import { listOperations, type SpecOperation } from '../../spec/operations.js';
import { runCli } from '../run-cli.js';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../start-test-server.js';
import { startTeamServer, TEAM_OPERATIONS, type BugName, type TeamServer } from './team-server.js';

const CREDENTIALS = [
  ['--username', 'user@example.com', '--password', TEST_USER_PASSWORD],
  ['--admin-username', 'admin@example.com', '--admin-password', TEST_ADMIN_PASSWORD],
].flat();
const ALL_BUGS: BugName[] = ['createdWithoutLocation', 'patchResetsUnsentAge', 'homeMade404'];
const RUN_MS = 240_000;

let server: TestServer;
let operations: SpecOperation[];
let dir: string;
const teams: TeamServer[] = [];

beforeAll(async () => {
  server = await startTestServer({ rateLimit: 0, loginRateLimit: 0 });
  operations = listOperations(await loadSpec());
  dir = await mkdtemp(join(tmpdir(), 'apikit-team-'));
});
afterAll(async () => {
  for (const team of teams) await team.close();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function team(bugs: BugName[]): Promise<TeamServer> {
  const started = await startTeamServer(server.url, bugs);
  teams.push(started);
  return started;
}

/** `apikit conform` against `api` with a JSON report, read back. */
async function conform(name: string, api: string, args: string[] = []) {
  const report = join(dir, `${name}.json`);
  const run = await runCli(
    [
      'conform',
      api,
      ...CREDENTIALS,
      '--seed',
      '29',
      '--reporter',
      'console',
      '--reporter',
      'json',
      '--output',
      `${dir}/${name}/`,
      ...args,
    ],
    { timeoutMs: RUN_MS },
  );
  const json = JSON.parse(
    await readFile(join(dir, name, 'report.json'), 'utf8').catch(() => readFile(report, 'utf8')),
  ) as ConformanceReport;
  return { ...run, json, context: `exit ${run.code}\n${run.stdout}\n${run.stderr}` };
}

const failed = (report: ConformanceReport) => report.results.filter((r) => r.status === 'failed');

describe('a backend team midway, checked by apikit conform', () => {
  it(
    'a scoped run sends nothing to, and reports nothing on, operations out of its scope; each planted bug is named at the request that broke it',
    async () => {
      const t = await team(ALL_BUGS);
      const run = await conform('scoped', t.api, ['--include', TEAM_OPERATIONS.join(',')]);
      expect(run.code, run.context).toBe(1);
      const inScope = new Set(TEAM_OPERATIONS);
      const scopedPaths = new Set(
        operations.filter((op) => inScope.has(op.operationId)).map((op) => op.path),
      );
      // OPTIONS of a path with an operation in scope is in scope; nothing else is.
      const allowed = (id: string | undefined) =>
        id === undefined ||
        inScope.has(id) ||
        operations.some(
          (op) => op.operationId === id && op.method === 'options' && scopedPaths.has(op.path),
        );
      for (const r of run.json.results)
        if (r.status !== 'skipped')
          expect(allowed(r.operationId), `${r.check} on ${r.operationId}`).toBe(true);
      // What reached the team's routes: no request of an operation out of scope.
      for (const line of t.requests) {
        const [method, path] = line.split(' ') as [string, string];
        const matched = operations.filter(
          (op) => op.method === method.toLowerCase() && templateOf(op.path).test(path),
        );
        for (const op of matched) expect(allowed(op.operationId), line).toBe(true);
      }
      const named = failed(run.json).map((r) => `${r.check} ${r.operationId}`);
      expect(named, run.context).toEqual(
        expect.arrayContaining([
          'location_resolves createUser',
          'patch_semantics updateUser',
          'problem_json getUser',
        ]),
      );
      // The PATCH that reset the field is the request shown, not the GET that read it back.
      const patch = failed(run.json).find((r) => r.check === 'patch_semantics')!;
      expect(patch.curl).toMatch(/^curl -i -X PATCH /);
      expect(patch.curl).toContain('$APIKIT_TOKEN');
    },
    RUN_MS,
  );

  it(
    'an unscoped run reports each missing operation once, and nothing else on it',
    async () => {
      const t = await team([]);
      const run = await conform('unscoped', t.api);
      expect(run.code, run.context).toBe(1);
      const missing = operations
        .filter((op) => op.method !== 'options' && !isDestructive(op))
        .map((op) => op.operationId)
        .filter((id) => !TEAM_OPERATIONS.includes(id));
      expect(run.json.summary.implemented?.missing.sort()).toEqual(missing.sort());
      for (const id of missing) {
        const onIt = failed(run.json).filter((r) => r.operationId === id);
        expect(
          onIt.map((r) => r.check),
          id,
        ).toEqual(['operation_implemented']);
      }
      expect(run.stdout).toContain(
        `implemented ${TEAM_OPERATIONS.length} of ${TEAM_OPERATIONS.length + missing.length} operations`,
      );
    },
    RUN_MS,
  );

  it(
    'a baseline round trip is green; a new bug turns it red and is named; a fixed one is listed',
    async () => {
      const baseline = join(dir, 'conform-baseline.json');
      const before = await team(['createdWithoutLocation', 'homeMade404']);
      const update = await conform('update', before.api, [
        '--baseline',
        baseline,
        '--update-baseline',
      ]);
      expect(update.code, update.context).toBe(0);
      const entries = (
        JSON.parse(await readFile(baseline, 'utf8')) as {
          entries: { check: string; operationId: string }[];
        }
      ).entries;
      // A missing operation is one entry.
      expect(entries.filter((e) => e.operationId === 'getOrder')).toEqual([
        expect.objectContaining({ check: 'operation_implemented' }),
      ]);

      const green = await conform('green', before.api, ['--baseline', baseline]);
      expect(green.code, green.context).toBe(0);
      expect(green.json.summary.baseline?.new).toBe(0);

      // Next sprint: the 404 is fixed, and a PATCH bug comes in.
      const after = await team(['createdWithoutLocation', 'patchResetsUnsentAge']);
      const red = await conform('red', after.api, ['--baseline', baseline]);
      expect(red.code, red.context).toBe(1);
      const fresh = red.json.summary.baseline!.entries.new.map(
        (e) => `${e.check} ${e.operationId}`,
      );
      expect(fresh, red.context).toContain('patch_semantics updateUser');
      const fixed = red.json.summary.baseline!.entries.fixed.map(
        (e) => `${e.check} ${e.operationId}`,
      );
      expect(fixed, red.context).toContain('problem_json getUser');
      expect(red.stdout).toContain('patch_semantics');
    },
    3 * RUN_MS,
  );

  it(
    'a base URL that is the origin, and a token the target refuses, stop the run up front with one line (exit 2)',
    async () => {
      const t = await team([]);
      const origin = await runCli(['conform', t.origin, ...CREDENTIALS], { timeoutMs: 60_000 });
      expect(origin.code, origin.stderr).toBe(2);
      expect(origin.stderr).toContain(`give the API's base URL ${t.api}`);
      const token = await runCli(['conform', t.api, '--token', 'not-a-token'], {
        timeoutMs: 60_000,
      });
      expect(token.code, token.stderr).toBe(2);
      expect(token.stderr).toMatch(/the --token was refused \(401/);
      expect(t.requests.filter((r) => !r.startsWith('GET '))).toEqual([]);
    },
    RUN_MS,
  );
});

/** A regex matching the concrete paths of an OpenAPI path template. */
function templateOf(path: string): RegExp {
  return new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
}
