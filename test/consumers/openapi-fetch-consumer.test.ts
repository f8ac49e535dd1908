// A TypeScript app calling the API through openapi-fetch (issue 30): the packed tarball installed
// into test/consumers/openapi-fetch (openapi-fetch with its default serializers, typed by the
// `paths` of user-order-apikit/types; msw 2, Vitest 4, TypeScript 6; its own lock file). Its
// code type-checks with tsc, and its tests run in Vitest's node environment under Node 20, 22
// and 24: `expand` and `sort` as arrays (sent repeated, as the client does by default), a login
// and the bearer token from a middleware, a 201 with Location, 400 and 409 problems in `error`,
// and the first answer of a fresh test file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nodeBinary } from '../../scripts/node-binary.mjs';
import { STARTUP_LINE, childEnv, installFixture, runStep } from './consumer-fixture.js';
import { expectLockInStep, expectSmallFootprint, installedVersion } from './consumer-checks.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const FIXTURE = 'openapi-fetch';
const NODE_MAJORS = [20, 22, 24];
const STEP_MS = 300_000;
/** A folder of this run's own, removed at the end. */
const work = mkdtempSync(join(tmpdir(), 'apikit-openapi-fetch-'));
let app: string;

const runNode = (major: number, args: string[]) =>
  runStep(app, nodeBinary(major), args, childEnv(major), STEP_MS);

vi.setConfig({ testTimeout: STEP_MS });

beforeAll(() => {
  // `npm test` has just built dist/ (a stale dist/ would be tested otherwise).
  for (const major of NODE_MAJORS) nodeBinary(major);
  app = installFixture(join(here, FIXTURE), work, 20, STEP_MS);
}, 2 * STEP_MS);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('openapi-fetch: what it installs', () => {
  it('resolves openapi-fetch 0.17, TypeScript 6 and Vitest 4 beside the tarball', () => {
    expect(installedVersion(app, 'openapi-fetch')).toMatch(/^0\.17\./);
    expect(installedVersion(app, 'typescript')).toMatch(/^6\.0\./);
    expect(installedVersion(app, 'vitest')).toMatch(/^4\./);
    expect(installedVersion(app, 'msw')).toMatch(/^2\./);
  });

  it('adds at most 60 packages and 40 MB beyond msw', () =>
    expectSmallFootprint(app, 'openapi-fetch app'));

  it('keeps its lock file in step with the package’s dependencies', () =>
    expectLockInStep(join(here, FIXTURE), root));

  it('tsc --noEmit is clean with TypeScript 6: the client and its tests against the package’s paths', () => {
    const result = runNode(20, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.']);
    expect(result.status, result.output).toBe(0);
  });
});

describe.each(NODE_MAJORS)('openapi-fetch on Node %i', (major) => {
  const vitest = (project: string) =>
    runNode(major, ['node_modules/vitest/vitest.mjs', 'run', '--project', project]);

  it('Vitest in node: expand and sort as arrays, bearer middleware, 201 Location, 400 and 409 in error', () => {
    const result = vitest('node');
    expect(result.status, result.output).toBe(0);
    expect(result.stdout, result.output).toMatch(/Tests\s+5 passed/);
  });

  it('a fresh test file has its first answer through the client', () => {
    const result = vitest('startup');
    expect(result.status, result.output).toBe(0);
    const line = STARTUP_LINE.exec(result.stdout);
    expect(line, result.output).not.toBeNull();
    console.log(`openapi-fetch, Node ${major}: ${line![0]}`);
  });
});
