// msw 3 and TypeScript 6 and 7 (issue 30, decision 0101): apikit's peer ranges proven, not
// claimed. The packed tarball is installed into test/consumers/vite-msw3 (msw 3, Vitest 5,
// TypeScript 5, 6 and 7; its own lock file) under Node 22, msw 3's minimum, with the README's
// setup copied in from ../vite-react/src/test/ (readme-snippets.test.ts keeps the README equal to
// those files). Then: the setup and the typed mocks type-check with each TypeScript, lib files
// included; the app's tests run in Vitest's node and jsdom; and the browser mocks run on msw 3's
// worker in Chromium, silent about the app's own modules.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nodeBinary } from '../../scripts/node-binary.mjs';
import { packTarball } from '../../scripts/pack-tarball.mjs';
import { launchChromium } from '../launch-chromium.js';
import { startStaticServer } from '../support/browser/static-server.js';
import { childEnv, copyFixture, runStep } from './consumer-fixture.js';
import { expectLockInStep, installedVersion } from './consumer-checks.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const FIXTURE = 'vite-msw3';
const NODE = 22;
const STEP_MS = 300_000;
/** A folder of this run's own, removed at the end. */
const work = mkdtempSync(join(tmpdir(), 'apikit-msw3-'));
const app = join(work, FIXTURE);

const run = (command: string, args: string[], extra: Record<string, string> = {}) =>
  runStep(app, command, args, { ...childEnv(NODE), ...extra }, STEP_MS);
const runNode = (args: string[], extra: Record<string, string> = {}) =>
  run(nodeBinary(NODE), args, extra);

vi.setConfig({ testTimeout: STEP_MS });

beforeAll(() => {
  // `npm test` has just built dist/ (a stale dist/ would be tested otherwise).
  packTarball(join(work, '.pack'));
  copyFixture(join(here, FIXTURE), app);
  cpSync(join(here, 'vite-react/src/test'), join(app, 'src/test'), { recursive: true });
  const installed = run('npm', ['ci', '--no-audit', '--no-fund']);
  if (installed.status !== 0) throw new Error(`npm ci in ${FIXTURE} failed:\n${installed.output}`);
  const init = run('npx', ['msw', 'init', 'public/', '--save']);
  if (init.status !== 0) throw new Error(`npx msw init public/ --save failed:\n${init.output}`);
}, 2 * STEP_MS);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('vite-msw3: what it installs', () => {
  it('resolves msw 3 and Vitest 5 beside the tarball, without --force or --legacy-peer-deps', () => {
    const version = (name: string) => installedVersion(app, name);
    expect(version('msw')).toMatch(/^3\./);
    expect(version('vitest')).toMatch(/^5\./);
    expect(version('typescript')).toMatch(/^6\./);
    expect(version('typescript-7')).toMatch(/^7\./);
  });

  it('apikit spec types names what to install beside TypeScript 6, exit 2', () => {
    const result = runNode(['node_modules/user-order-apikit/bin/apikit.js', 'spec', 'types']);
    expect(result.status, result.output).toBe(2);
    expect(result.stderr).toContain(
      'apikit spec types needs openapi-typescript, which is not installed: npm i -D openapi-typescript@^7.13.0 --legacy-peer-deps (its peer range names TypeScript 5; it runs on 6)',
    );
  });

  it('keeps its lock file in step with the package’s dependencies', () =>
    expectLockInStep(join(here, FIXTURE), root));
});

describe('vite-msw3: the README’s setup and the typed mocks type-check (lib files too)', () => {
  it.each([
    ['TypeScript 5', 'typescript-5'],
    ['TypeScript 6 (what npm create vite scaffolds)', 'typescript'],
    ['TypeScript 7', 'typescript-7'],
  ])('tsc --noEmit is clean with %s', (_name, folder) => {
    const result = runNode([`node_modules/${folder}/bin/tsc`, '--noEmit', '-p', '.']);
    expect(result.status, result.output).toBe(0);
  });
});

describe(`vite-msw3 on Node ${NODE}`, () => {
  it.each(['node', 'jsdom'])(
    'Vitest 5 in %s: login, 200 list, 304, a networkError override, an unhandled request',
    (project) => {
      const result = runNode(['node_modules/vitest/vitest.mjs', 'run', '--project', project]);
      expect(result.status, result.output).toBe(0);
      expect(result.stdout).toMatch(/Tests\s+4 passed/);
    },
  );

  it('vite build in Chromium: msw 3’s worker answers the API and lets the app’s modules pass without a warning', async () => {
    const built = runNode(['node_modules/vite/bin/vite.js', 'build']);
    expect(built.status, built.output).toBe(0);
    const server = await startStaticServer([join(app, 'dist')]);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const messages: string[] = [];
      const problems: string[] = [];
      page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(server.origin);
      await page.waitForSelector('body[data-ready=yes]', { state: 'attached', timeout: 20_000 });
      const seen = await page.evaluate(async () => {
        const own = await fetch('/src/App.vue');
        const list = await fetch('/api/v1/users?size=2');
        const etag = (await fetch('/api/v1/users/1')).headers.get('etag')!;
        const again = await fetch('/api/v1/users/1', { headers: { 'If-None-Match': etag } });
        // src/main.ts hands the page's mock API over as window.mocks.
        const { mocks } = window as unknown as {
          mocks: { mock: { override(id: string, answer: object, options: object): void } };
        };
        mocks.mock.override('listUsers', { networkError: true }, { nth: 1 });
        const failed = await fetch('/api/v1/users').catch((error: unknown) => error);
        return {
          own: own.status,
          list: list.status,
          notModified: again.status,
          failed: failed instanceof TypeError,
        };
      });
      expect(seen).toEqual({ own: 404, list: 200, notModified: 304, failed: true });
      // The app's own module went to the server (which has no such file), unannounced.
      expect(server.paths).toContain('/src/App.vue');
      expect(server.paths.filter((p) => p.startsWith('/api/'))).toEqual([]);
      expect(problems).toEqual([]);
      // Under msw 3 the old option name alone let the worker warn about /src/App.vue.
      expect(
        messages.filter((line) => line.includes('[MSW]') && !/^log|^startGroup/.test(line)),
      ).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
