// A Vue app as `npm create vite@latest my-app -- --template vue-ts` scaffolds it (create-vite
// 9.3.0: Vue 3.5, @vitejs/plugin-vue 6, vue-tsc 3, TypeScript 6.0, Vite 8), with the tests a team
// adds (issue 30): the packed tarball installed into test/consumers/vite-vue (msw 2, Vitest 4,
// jsdom, happy-dom, @vue/test-utils; its own lock file) with the README's setup copied in from
// ../vite-react/src/test/ (readme-snippets.test.ts keeps the README equal to those files). Under
// Node 20 and 24: a UserList.vue that logs in and lists users with relative URLs, mounted with
// @vue/test-utils, and plain fetch tests (201 and Location, ETag and 304, a 404 problem, a
// networkError override, mock.reset() between tests), in Vitest's jsdom and in happy-dom; the
// first answer of a fresh test file; and the template's `vue-tsc -b` clean with TypeScript 6.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nodeBinary } from '../../scripts/node-binary.mjs';
import { STARTUP_LINE, childEnv, installFixture, runStep } from './consumer-fixture.js';
import { expectLockInStep, expectSmallFootprint, installedVersion } from './consumer-checks.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const FIXTURE = 'vite-vue';
const NODE_MAJORS = [20, 24];
const STEP_MS = 300_000;
/** A folder of this run's own, removed at the end. */
const work = mkdtempSync(join(tmpdir(), 'apikit-vite-vue-'));
let app: string;

const runNode = (major: number, args: string[]) =>
  runStep(app, nodeBinary(major), args, childEnv(major), STEP_MS);

vi.setConfig({ testTimeout: STEP_MS });

beforeAll(() => {
  // `npm test` has just built dist/ (a stale dist/ would be tested otherwise).
  for (const major of NODE_MAJORS) nodeBinary(major);
  app = installFixture(join(here, FIXTURE), work, 20, STEP_MS);
  // The README's setup, exactly as the React app has it.
  cpSync(join(here, 'vite-react/src/test'), join(app, 'src/test'), { recursive: true });
  // The start-up measurement, the same file as the React app's, so the two figures compare.
  cpSync(join(here, 'vite-react/src/startup.test.ts'), join(app, 'src/startup.test.ts'));
}, 2 * STEP_MS);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('vite-vue: what it installs', () => {
  it('resolves the vue-ts template’s packages, TypeScript 6 among them, beside the tarball', () => {
    const version = (name: string) => installedVersion(app, name);
    expect(version('vue')).toMatch(/^3\.5\./);
    expect(version('@vitejs/plugin-vue')).toMatch(/^6\./);
    expect(version('vue-tsc')).toMatch(/^3\./);
    expect(version('typescript')).toMatch(/^6\.0\./);
    expect(version('vite')).toMatch(/^8\.3\./);
    expect(version('vitest')).toMatch(/^4\./);
    expect(version('msw')).toMatch(/^2\./);
  });

  it('adds at most 60 packages and 40 MB beyond msw', () => expectSmallFootprint(app, 'Vue app'));

  it('keeps its lock file in step with the package’s dependencies', () =>
    expectLockInStep(join(here, FIXTURE), root));

  it('vue-tsc -b (the template’s build script) is clean with TypeScript 6: the .vue files, the setup, the typed overrides', () => {
    const result = runNode(20, ['node_modules/vue-tsc/bin/vue-tsc.js', '-b']);
    expect(result.status, result.output).toBe(0);
  });
});

describe.each(NODE_MAJORS)('vite-vue on Node %i', (major) => {
  const vitest = (project: string) =>
    runNode(major, ['node_modules/vitest/vitest.mjs', 'run', '--project', project]);

  it.each(['jsdom', 'happy-dom'])(
    'Vitest in %s: UserList.vue mounted, a typed 503 override, 201 Location, 304, 404, networkError, reset',
    (project) => {
      const result = vitest(project);
      expect(result.status, result.output).toBe(0);
      expect(result.stdout, result.output).toMatch(/Tests\s+7 passed/);
      // The relative URLs resolved against the page's origin, which the test asserted.
      const origin = /apikit-vue-origin (.+)/.exec(result.stdout);
      expect(origin, result.output).not.toBeNull();
      console.log(`vite-vue, Node ${major}, ${origin![1]}`);
    },
  );

  it('a fresh jsdom test file has its first answer', () => {
    const result = vitest('startup');
    expect(result.status, result.output).toBe(0);
    const line = STARTUP_LINE.exec(result.stdout);
    expect(line, result.output).not.toBeNull();
    console.log(`vite-vue, Node ${major}: ${line![0]}`);
  });
});
