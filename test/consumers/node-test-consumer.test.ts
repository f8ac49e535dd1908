// A Node-only project on Node's own test runner (issue 30): the packed tarball installed into
// test/consumers/node-test (msw 2, no Vitest, no Jest; its own lock file), whose plain .mjs tests
// run with `node --test` under Node 20, 22 and 24 (Node 20 without type stripping): login, a
// 200 list, ETag and 304, a 404 problem, a networkError override, mock.reset() in afterEach,
// unhandledRequests('error'), and the first answer of a fresh test file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nodeBinary } from '../../scripts/node-binary.mjs';
import { STARTUP_LINE, childEnv, installFixture, runStep } from './consumer-fixture.js';
import { expectLockInStep, expectSmallFootprint } from './consumer-checks.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const FIXTURE = 'node-test';
const NODE_MAJORS = [20, 22, 24];
const STEP_MS = 300_000;
/** A folder of this run's own, removed at the end. */
const work = mkdtempSync(join(tmpdir(), 'apikit-node-test-'));
let app: string;

vi.setConfig({ testTimeout: STEP_MS });

beforeAll(() => {
  // `npm test` has just built dist/ (a stale dist/ would be tested otherwise).
  for (const major of NODE_MAJORS) nodeBinary(major);
  app = installFixture(join(here, FIXTURE), work, 20, STEP_MS);
}, 2 * STEP_MS);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('node-test: what it installs', () => {
  it('adds at most 60 packages and 40 MB beyond msw', () =>
    expectSmallFootprint(app, 'node --test project'));

  it('keeps its lock file in step with the package’s dependencies', () =>
    expectLockInStep(join(here, FIXTURE), root));
});

describe.each(NODE_MAJORS)('node-test on Node %i', (major) => {
  it('node --test: the 8 tests pass, and a fresh file has its first answer', () => {
    const result = runStep(app, nodeBinary(major), ['--test'], childEnv(major), STEP_MS);
    expect(result.status, result.output).toBe(0);
    // Node 20 and 22 report in TAP when stdout is not a terminal (`# pass 8`), 24 in spec (`ℹ pass 8`).
    expect(result.stdout, result.output).toMatch(/^\W*pass 8$/m);
    expect(result.stdout, result.output).toMatch(/^\W*fail 0$/m);
    const line = STARTUP_LINE.exec(result.stdout);
    expect(line, result.output).not.toBeNull();
    console.log(`node-test, Node ${major}: ${line![0]}`);
  });
});
