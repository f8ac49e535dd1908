// Jest 29 and 30 under jsdom (issue 30, item 3; decision 0105): the packed tarball installed
// into test/consumers/jest-jsdom (Jest 30, jest-environment-jsdom 30, MSW's jest-fixed-jsdom,
// msw 2, Babel for msw's ES-module-only dependencies; its own lock file) and into
// test/consumers/jest-29 (the same app's files, copied in, on Jest 29). The app's tests, in plain
// JavaScript as a Jest user writes them, run login, a 200 list, a 304, a 409 and a 404 problem,
// `mock.reset()` between tests, a `networkError` override and the DOM, on relative URLs (jsdom's
// page is http://localhost) against mocks made without a baseUrl: Jest 30 under Node 20, 22 and
// 24, Jest 29 under Node 20. They load `user-order-apikit/mocks` through its `require` export
// (the CommonJS build) and hash, sign and digest with Node's Web Crypto, jsdom's having no
// `subtle`.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nodeBinary } from '../../scripts/node-binary.mjs';
import { packTarball } from '../../scripts/pack-tarball.mjs';
import { childEnv, copyFixture, runStep } from './consumer-fixture.js';
import { expectLockInStep, expectSmallFootprint, installedVersion } from './consumer-checks.js';
import { expectRecording, keepRecording, recordedRun, recordingEnv } from './recording-checks.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const FIXTURE = 'jest-jsdom';
const JEST_29 = 'jest-29';
/** The app's own files, which the Jest 29 fixture runs as they are. */
const APP_FILES = ['babel.config.js', 'jest.config.js', 'jest.startup.config.js', 'src'];
const STEP_MS = 300_000;
/** The app's tests: api.test.js (5) and users.test.js (2). */
const SUMMARY = /Tests:\s+7 passed, 7 total/;
/** A folder of this run's own, removed at the end. */
const work = mkdtempSync(join(tmpdir(), 'apikit-jest-'));

let packed: ReturnType<typeof packTarball>;

function jest(
  fixture: string,
  major: number,
  args: string[] = [],
  env: Record<string, string> = {},
) {
  const bin = join(work, fixture, 'node_modules/jest/bin/jest.js');
  // A cache of this run's own: nothing transformed by an earlier run is reused.
  const cache = `--cacheDirectory=${join(work, `jest-cache-${fixture}`)}`;
  return runStep(
    join(work, fixture),
    nodeBinary(major),
    [bin, cache, ...args],
    { ...childEnv(major), ...env },
    STEP_MS,
  );
}

vi.setConfig({ testTimeout: STEP_MS });

beforeAll(async () => {
  // `npm test` has just built dist/ (a stale dist/ would be tested otherwise).
  packed = packTarball(join(work, '.pack'));
  copyFixture(join(here, FIXTURE), join(work, FIXTURE));
  copyFixture(join(here, JEST_29), join(work, JEST_29));
  for (const name of APP_FILES)
    cpSync(join(here, FIXTURE, name), join(work, JEST_29, name), { recursive: true });
  await Promise.all([22, 24].map(async (major) => nodeBinary(major)));
  for (const fixture of [FIXTURE, JEST_29]) {
    const installed = runStep(
      join(work, fixture),
      'npm',
      ['ci', '--no-audit', '--no-fund'],
      childEnv(20),
      STEP_MS,
    );
    if (installed.status !== 0)
      throw new Error(`npm ci in ${fixture} failed:\n${installed.output}`);
  }
}, 3 * STEP_MS);

// A loaded machine takes longer than the default hook timeout to remove installed apps.
afterAll(() => rmSync(work, { recursive: true, force: true }), STEP_MS);

describe('jest-jsdom: what it installs', () => {
  const version = (fixture: string, name: string) => installedVersion(join(work, fixture), name);

  it('resolves Jest 30 (and 29 in jest-29), jsdom’s environment and msw 2 beside the tarball', () => {
    expect(version(FIXTURE, 'jest')).toMatch(/^30\./);
    expect(version(FIXTURE, 'jest-environment-jsdom')).toMatch(/^30\./);
    expect(version(FIXTURE, 'msw')).toMatch(/^2\./);
    expect(version(JEST_29, 'jest')).toMatch(/^29\./);
    expect(version(JEST_29, 'jest-environment-jsdom')).toMatch(/^29\./);
  });

  it('adds at most 60 packages and 40 MB to the Jest app beyond msw', () =>
    expectSmallFootprint(join(work, FIXTURE), 'Jest app'));

  it('keeps the lock files in step with the package’s dependencies', () => {
    for (const fixture of [FIXTURE, JEST_29]) expectLockInStep(join(here, fixture), root);
  });

  it('gives `require` the CommonJS build, typed in every resolution (attw), needing only msw', () => {
    const attw = spawnSync(
      join(root, 'node_modules/.bin/attw'),
      [packed.tarball, '--entrypoints', './mocks', '--format', 'json'],
      { encoding: 'utf8' },
    );
    expect(attw.status, attw.stdout + attw.stderr).toBe(0);
    const { problems } = JSON.parse(attw.stdout) as { problems: Record<string, unknown[]> };
    expect(Object.values(problems).flat()).toEqual([]);
    const required = runStep(
      join(work, FIXTURE),
      nodeBinary(20),
      [
        '-e',
        "const m = require('user-order-apikit/mocks'); console.log(require.resolve('user-order-apikit/mocks'), typeof m.createMockApi)",
      ],
      childEnv(20),
      STEP_MS,
    );
    expect(required.status, required.output).toBe(0);
    expect(required.stdout).toMatch(/create-mock-api\.cjs function/);
  });
});

describe.each([
  ['Jest 30', FIXTURE, 20],
  ['Jest 30', FIXTURE, 22],
  ['Jest 30', FIXTURE, 24],
  ['Jest 29', JEST_29, 20],
])('%s (%s) on Node %i', (name, fixture, major) => {
  it('the app’s tests pass against apikit/mocks: 200, 304, 409, 404, reset, network error, DOM', () => {
    const result = jest(fixture, major);
    expect(result.status, result.output).toBe(0);
    // Jest prints its summary on stderr.
    expect(result.output).toMatch(SUMMARY);
    expect(result.output).not.toMatch(/unhandled|importKey/i);
  });

  it('the mocks answer the first request of a fresh jsdom test file', () => {
    const result = jest(fixture, major, ['--config', 'jest.startup.config.js']);
    expect(result.status, result.output).toBe(0);
    const line = /apikit-startup: (\d+) ms to the first answer \(import (\d+) ms\)/.exec(
      result.stdout,
    );
    expect(line, result.output).not.toBeNull();
    console.log(`${name}, Node ${major}: ${line![0]}`);
  });
});

describe('jest-jsdom: records its interactions (APIKIT_RECORD, decision 0112)', () => {
  it('its tests leave one recording through the CommonJS build: tests named, no secret, the same bytes twice', () => {
    const record = () =>
      recordedRun(join(work, FIXTURE), () => jest(FIXTURE, 20, [], recordingEnv('jest-jsdom')));
    const first = record();
    expect(record(), 'a second run records other bytes').toBe(first);
    const file = expectRecording(first, {
      consumer: 'jest-jsdom',
      testFiles: ['src/api.test.js', 'src/users.test.js'],
      operations: ['login', 'listUsers', 'createUser', 'getUser'],
      secrets: ['admin-demo-password', 'user-demo-password'],
    });
    // Jest's names: the test's own (no describe here), as `expect.getState()` gives them.
    const names = file.interactions.flatMap((i) => i.tests.map((t) => t.name));
    expect(names).toContain('logs in with the demo account and lists the users');
    // The 503 the test asked for is marked as canned: a replay does not expect it unasked.
    expect(file.interactions.find((i) => i.response.status === 503)?.canned).toBe('override');
    console.log(
      `jest-jsdom recorded ${file.interactions.length} interactions: ${keepRecording(first, 'jest-jsdom')}`,
    );
  });
});
