// The consumer layer (issue 19, decision 0049): apikit packed as npm would publish it, installed
// from the tarball into the fixture apps beside this file (each with its own lock file), and
// run there as its users run it, under Node 20, 22 and 24:
//   vite-react: (a) Vitest + jsdom, (b) Vitest + happy-dom, (c) Vitest in node, the start-up
//               time, tsc with TypeScript 5, 6 and 7, (d) `vite build` driven in Chromium through
//               the service worker;
//   backend-ci: (e) `npx apikit serve` then `npx apikit conform` against it.
// The fixtures are copied to a folder outside this repository, so that nothing resolves from
// the repository's own node_modules, and installed once with `npm ci`; each Node binary then
// runs the same installation.
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStaticServer } from '../support/browser/static-server.js';
import { nodeBinary } from '../../scripts/node-binary.mjs';
import { packTarball } from '../../scripts/pack-tarball.mjs';
import {
  childEnv as fixtureEnv,
  copyFixture,
  runStep,
  type StepResult,
} from './consumer-fixture.js';
import { footprint } from './footprint.js';
import { expectLockInStep } from './consumer-checks.js';
import { launchChromium } from '../launch-chromium.js';
import {
  expectCommittedSample,
  expectRecording,
  keepRecording,
  recordedRun,
  recordingEnv,
} from './recording-checks.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
/** A folder of this run's own (two runs at once must not share one), removed at the end. */
const work = mkdtempSync(join(tmpdir(), 'apikit-consumers-'));
const NODE_MAJORS = [20, 22, 24];
const FIXTURES = ['vite-react', 'backend-ci'];
const STEP_MS = 300_000;

/** The numbers of the README's sentence that `pattern` matches. */
function readmeFigures(pattern: RegExp): number[] {
  const match = pattern.exec(readFileSync(join(root, 'README.md'), 'utf8'));
  if (!match) throw new Error(`README.md has no sentence matching ${pattern}`);
  return match.slice(1).map(Number);
}

/** The harness's own Vitest variables must not reach the fixtures' Vitest. */
function childEnv(nodeMajor: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...fixtureEnv(nodeMajor), ...extra };
}

/** Runs a command in a fixture; the result carries all its output for the failure message. */
function run(fixture: string, command: string, args: string[], env: NodeJS.ProcessEnv): StepResult {
  return runStep(join(work, fixture), command, args, env, STEP_MS);
}

/** `node <fixture>/node_modules/<bin>` with the Node of `major`. */
function runNode(
  fixture: string,
  major: number,
  args: string[],
  extra: Record<string, string> = {},
) {
  return run(fixture, nodeBinary(major), args, childEnv(major, extra));
}

// A step (an install, a fixture's test run, a build in Chromium) may take minutes on a loaded
// machine; each one's own spawn timeout (STEP_MS) is what bounds it.
vi.setConfig({ testTimeout: STEP_MS });

let packed: ReturnType<typeof packTarball>;
/** What each fixture's `npm ci` printed. */
const installed: Record<string, string> = {};

beforeAll(async () => {
  // `npm test` has just built dist/ (a stale dist/ would be tested otherwise).
  packed = packTarball(join(work, '.pack'));
  for (const fixture of FIXTURES) copyFixture(join(here, fixture), join(work, fixture));
  await Promise.all(NODE_MAJORS.map(async (major) => nodeBinary(major)));
  for (const fixture of FIXTURES) {
    const result = run(fixture, 'npm', ['ci', '--no-audit', '--no-fund'], childEnv(20));
    if (result.status !== 0) throw new Error(`npm ci in ${fixture} failed:\n${result.output}`);
    installed[fixture] = result.output;
  }
  // The README's one instruction for the worker file, as an app runs it (the file is not kept in
  // the fixture: it must be the installed msw's own).
  const init = run('vite-react', 'npx', ['msw', 'init', 'public/', '--save'], childEnv(20));
  if (init.status !== 0) throw new Error(`npx msw init public/ --save failed:\n${init.output}`);
}, 4 * STEP_MS);

// A loaded machine takes longer than the default hook timeout to remove installed apps.
afterAll(() => rmSync(work, { recursive: true, force: true }), STEP_MS);

describe('the packed tarball', () => {
  it('holds what a user runs and nothing else', () => {
    const { files } = packed;
    for (const needed of [
      'package.json',
      'README.md',
      'bin/apikit.js',
      'dist/cli/cli.js',
      'dist/cli/server.js',
      'dist/cli/conform.js',
      'dist/mocks/create-mock-api.js',
      'dist/mocks/create-mock-api.d.ts',
      'dist/mocks/browser/browser-entry.js',
      'spec/openapi.yaml',
      'spec/openapi.json',
    ])
      expect(files, needed).toContain(needed);
    const stray = files.filter((f) =>
      /(^|\/)(test|tests|bench|test-support|\.ci)\/|\.test\.|\.map$|^(core|node-runtime|proxy|mocks|reference-server|conformance|spec)\/.*\.ts$/.test(
        f,
      ),
    );
    expect(stray).toEqual([]);
    console.log(
      `apikit tarball: ${files.length} files, ${(packed.size / 1e6).toFixed(1)} MB packed, ${(packed.unpackedSize / 1e6).toFixed(1)} MB unpacked`,
    );
  });

  it('installs without a lifecycle script: the published manifest has no scripts', () => {
    const manifest = JSON.parse(
      readFileSync(join(work, 'vite-react/node_modules/user-order-apikit/package.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(manifest['scripts']).toBeUndefined();
    expect(manifest['devDependencies']).toBeUndefined();
    // npm 11 lists the installed packages whose scripts are not approved (msw's is).
    for (const fixture of FIXTURES)
      expect(installed[fixture], installed[fixture]).not.toMatch(
        /install-scripts.*user-order-apikit/,
      );
  });

  it('passes publint and arethetypeswrong (ESM-only profile) without a remark', () => {
    const bin = join(root, 'node_modules/.bin');
    const publint = spawnSync(join(bin, 'publint'), ['run', packed.tarball, '--strict'], {
      encoding: 'utf8',
    });
    expect(publint.status, publint.stdout + publint.stderr).toBe(0);
    expect(publint.stdout).toContain('All good!');
    // ESM only (`type: module`, no require entry): the node10 and CommonJS resolutions are
    // out of scope by design (decision 0048), every other one must be clean.
    const attw = spawnSync(
      join(bin, 'attw'),
      ['--profile', 'esm-only', '--format', 'json', packed.tarball],
      {
        encoding: 'utf8',
      },
    );
    expect(attw.status, attw.stdout + attw.stderr).toBe(0);
    const { problems } = JSON.parse(attw.stdout) as {
      problems: Record<string, { entrypoint: string; resolutionKind?: string }[]>;
    };
    const remarks = Object.values(problems)
      .flat()
      .filter((p) => !['node10', 'node16-cjs'].includes(p.resolutionKind ?? ''));
    expect(remarks).toEqual([]);
  });

  it('adds to the Vite app beyond msw what the README says, no database driver among them', () => {
    const dir = join(work, 'vite-react');
    const { packages, bytes } = footprint(dir, 'user-order-apikit', ['msw']);
    console.log(
      `apikit footprint in the Vite app beyond msw: ${packages.length} packages, ${(bytes / 1e6).toFixed(1)} MB (${packages.join(', ')})`,
    );
    expect(packages.filter((name) => /^(pg|pg-.*|postgres.*)$/.test(name))).toEqual([]);
    const [count, megabytes] = readmeFigures(/That adds (\d+) packages and ([\d.]+) MB beyond msw/);
    expect(packages.length, 'README.md: "That adds N packages"').toBe(count);
    // The size moves with every change to dist/: the README's figure may be 5% off, no more.
    expect(
      Math.abs(bytes / 1e6 - megabytes!) / megabytes!,
      `README.md: ${megabytes} MB`,
    ).toBeLessThan(0.05);
  });

  it('keeps the fixtures’ lock files in step with the package’s dependencies', () => {
    for (const fixture of FIXTURES) expectLockInStep(join(here, fixture), root);
  });
});

describe('vite-react: type-checks against the installed package', () => {
  it.each([
    ['TypeScript 5', ['node_modules/typescript-5/bin/tsc', '--noEmit', '-p', '.']],
    [
      'TypeScript 6 (what npm create vite scaffolds)',
      ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.'],
    ],
    ['TypeScript 7', ['node_modules/typescript-7/bin/tsc', '--noEmit', '-p', '.']],
    // Every entry's types under the other module resolutions (types/entries.ts; issue 30).
    [
      'TypeScript 5, moduleResolution node',
      ['node_modules/typescript-5/bin/tsc', '--noEmit', '-p', 'tsconfig.node10.json'],
    ],
    [
      'TypeScript 6, moduleResolution node (deprecated there)',
      [
        'node_modules/typescript/bin/tsc',
        '--noEmit',
        '-p',
        'tsconfig.node10.json',
        '--ignoreDeprecations',
        '6.0',
      ],
    ],
    [
      'TypeScript 6, moduleResolution node16',
      ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.node16.json'],
    ],
    [
      'TypeScript 7, moduleResolution node16',
      ['node_modules/typescript-7/bin/tsc', '--noEmit', '-p', 'tsconfig.node16.json'],
    ],
  ])('tsc --noEmit is clean with %s', (_name, args) => {
    const result = runNode('vite-react', 20, args);
    expect(result.status, result.output).toBe(0);
  });
});

describe('vite-react: records its interactions (APIKIT_RECORD, decision 0112)', () => {
  it('its tests in jsdom, happy-dom and node leave one recording: tests named, no secret, the same bytes twice', () => {
    const record = () =>
      recordedRun(join(work, 'vite-react'), () =>
        runNode(
          'vite-react',
          20,
          ['node_modules/vitest/vitest.mjs', 'run', '--project', 'jsdom'].concat([
            '--project',
            'happy-dom',
            '--project',
            'node',
          ]),
          recordingEnv('vite-react'),
        ),
      );
    const first = record();
    expect(record(), 'a second run records other bytes').toBe(first);
    const file = expectRecording(first, {
      consumer: 'vite-react',
      testFiles: ['src/api.test.ts', 'src/App.test.tsx'],
      operations: ['login', 'listUsers', 'createUser', 'getUser'],
      secrets: ['admin-demo-password', 'user-demo-password'],
    });
    const kept = keepRecording(first, 'vite-react');
    console.log(`vite-react recorded ${file.interactions.length} interactions: ${kept}`);
    expectCommittedSample(kept, 'vite-react');
  });
});

describe.each(NODE_MAJORS)('Node %i', (major) => {
  const vitest = (project: string) =>
    runNode('vite-react', major, ['node_modules/vitest/vitest.mjs', 'run', '--project', project]);

  it.each([
    ['(a) Vitest + jsdom', 'jsdom'],
    ['(b) Vitest + happy-dom', 'happy-dom'],
    ['(c) Vitest in node', 'node'],
  ])('%s: the app’s tests pass against apikit/mocks', (_name, project) => {
    const result = vitest(project);
    expect(result.status, result.output).toBe(0);
    expect(result.stdout).toMatch(/Tests\s+\d+ passed/);
  });

  it('the mocks answer the first request of a fresh jsdom test file', () => {
    const result = vitest('startup');
    expect(result.status, result.output).toBe(0);
    const line = /apikit-startup: (\d+) ms to the first answer \(import (\d+) ms\)/.exec(
      result.stdout,
    );
    expect(line, result.output).not.toBeNull();
    console.log(`Node ${major}: ${line![0]}`);
  });

  it('(d) vite build, served statically: the app in Chromium through the real service worker', async () => {
    const outDir = `dist-node${major}`;
    const plain = runNode('vite-react', major, [
      'node_modules/vite/bin/vite.js',
      'build',
      '--outDir',
      `${outDir}-plain`,
    ]);
    expect(plain.status, plain.output).toBe(0);
    // Without the flag the mocks are not in the build at all.
    const plainCode = readdirSync(join(work, 'vite-react', `${outDir}-plain/assets`))
      .map((name) => readFileSync(join(work, 'vite-react', `${outDir}-plain/assets`, name), 'utf8'))
      .join('\n');
    expect(plainCode).not.toContain('mockServiceWorker');
    const built = runNode(
      'vite-react',
      major,
      ['node_modules/vite/bin/vite.js', 'build', '--outDir', outDir],
      {
        VITE_API_MOCKS: 'on',
      },
    );
    expect(built.status, built.output).toBe(0);
    const site = join(work, 'vite-react', outDir);
    expect(existsSync(join(site, 'mockServiceWorker.js'))).toBe(true);
    // The mocks' one chunk, as the README gives it (kB as Vite prints them), within 3%.
    const chunk = readdirSync(join(site, 'assets')).find((name) =>
      /^browser-entry-.*\.js$/.test(name),
    );
    const code = readFileSync(join(site, 'assets', chunk!));
    const [raw, gzipped] = readmeFigures(/one chunk of (\d+) KB, (\d+) KB gzipped/);
    console.log(
      `Node ${major}: the mocks chunk is ${(code.length / 1000).toFixed(0)} kB, ${(gzipSync(code).length / 1000).toFixed(0)} kB gzipped`,
    );
    expect(Math.abs(code.length / 1000 - raw!) / raw!, `README.md: ${raw} KB`).toBeLessThan(0.03);
    expect(Math.abs(gzipSync(code).length / 1000 - gzipped!) / gzipped!).toBeLessThan(0.03);

    const server = await startStaticServer([site]);
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      const responses: { path: string; status: number; type: string; fromWorker: boolean }[] = [];
      page.on('response', (r) =>
        responses.push({
          path: new URL(r.url()).pathname,
          status: r.status(),
          type: r.headers()['content-type'] ?? '',
          fromWorker: r.fromServiceWorker(),
        }),
      );
      await page.goto(server.origin);
      await page.waitForSelector('ul[aria-label=users] li', { timeout: 20_000 });
      expect(problems).toEqual([]);
      expect(await page.locator('ul[aria-label=users] li').count()).toBe(5);
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
      // The lazily loaded chunk came from the static server, through the worker, untouched.
      const chunk = responses.find((r) => /\/assets\/UserList-[\w-]+\.js$/.test(r.path));
      expect(chunk, JSON.stringify(responses)).toMatchObject({
        status: 200,
        type: expect.stringMatching(/javascript/),
      });
      expect(server.paths).toContain(chunk!.path);
      const list = responses.find((r) => r.path === '/api/v1/users');
      expect(list, JSON.stringify(responses)).toMatchObject({ status: 200, fromWorker: true });
      expect(server.paths.filter((p) => p.startsWith('/api/'))).toEqual([]);

      const seen = await page.evaluate(async () => {
        const json = { 'Content-Type': 'application/json' };
        const created = await fetch('/api/v1/users', {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ name: 'Ada', email: 'ada.browser@example.com', age: 36 }),
        });
        const location = created.headers.get('location')!;
        const etag = created.headers.get('etag')!;
        const read = await fetch(location);
        const again = await fetch(location, { headers: { 'If-None-Match': etag } });
        const page2 = await fetch('/api/v1/users?size=2');
        const index = await fetch('/index.html');
        const missing = await fetch('/no-such-asset.png');
        return {
          created: [created.status, created.headers.get('content-type')],
          location,
          read: [
            read.status,
            read.headers.get('etag') === etag,
            ((await read.json()) as { email: string }).email,
          ],
          notModified: again.status,
          link: page2.headers.get('link'),
          index: [index.status, index.headers.get('content-type')],
          missing: [missing.status, missing.headers.get('content-type')],
        };
      });
      expect(seen.created[0]).toBe(201);
      expect(seen.created[1]).toMatch(/^application\/json/);
      expect(seen.location).toMatch(/^\/api\/v1\/users\/\d+$/);
      expect(seen.read).toEqual([200, true, 'ada.browser@example.com']);
      expect(seen.notModified).toBe(304);
      expect(seen.link).toMatch(/rel="next"/);
      // Everything that is not the API goes to the network, whatever it answers.
      expect(seen.index).toEqual([200, 'text/html; charset=utf-8']);
      expect(seen.missing).toEqual([404, 'text/plain']);
    } finally {
      await browser.close();
      await server.close();
    }
  });

  it('(e) backend CI: npx apikit serve, then npx apikit conform against it', () => {
    const result = run('backend-ci', nodeBinary(major), ['ci.mjs'], childEnv(major));
    expect(result.status, result.output).toBe(0);
  });
});
