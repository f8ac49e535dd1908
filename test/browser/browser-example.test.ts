import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStaticServer, type StaticServer } from '../support/browser/static-server.js';
import { launchChromium } from '../launch-chromium.js';
import { writeInteractions } from '../../mocks/interaction-file-writer.js';
import { MOCK_DEMO_PASSWORDS } from '../../mocks/mock-context.js';
import type { InteractionFile } from '../../spec/interactions/interaction-file.js';
import { parseInteractionFile } from '../../spec/interactions/parse-interaction-file.js';

/*
 * The browser example (examples/browser/: index.html + app.ts) in headless Chromium: the bundle is built
 * here (nothing generated is committed but the worker script), served by a static file server,
 * and every API call must be answered by MSW's service worker running the mocks.
 */

const TIMEOUT_MS = 20_000;
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const ROOT = here('../../');
/** In the git-ignored reports/ folder, for a person to look at. */
const SCREENSHOT = here('../../reports/mocks-browser-example.png');

interface BuildSummary {
  outfile: string;
  bytes: number;
  gzipBytes: number;
  packages: Record<string, number>;
}

let build: BuildSummary;
let server: StaticServer;
let browser: Browser | undefined;
let page: Page;
/** Every request of the page and of its service worker, by URL. */
const requests: string[] = [];
/** API answers as the page saw them: URL, status, and whether the worker answered. */
const apiResponses: { url: string; status: number; fromServiceWorker: boolean }[] = [];
/** Console errors, page errors and failed requests. */
const problems: string[] = [];

beforeAll(async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/build-browser.mjs'], {
    cwd: ROOT,
  });
  build = JSON.parse(stdout) as BuildSummary;
  server = await startStaticServer([
    here('../../examples/browser'),
    here('../../mocks/browser/public'),
  ]);
  browser = await launchChromium(TIMEOUT_MS);
  // A fresh context: no service worker registered from an earlier run.
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
  context.on('request', (request) => requests.push(request.url()));
  context.on('requestfailed', (request) =>
    problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`),
  );
  page = await context.newPage();
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/')) {
      apiResponses.push({
        url: response.url(),
        status: response.status(),
        fromServiceWorker: response.fromServiceWorker(),
      });
    }
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(`${server.origin}/`, { waitUntil: 'load', timeout: TIMEOUT_MS });
  await page.waitForSelector('body[data-state]', { timeout: TIMEOUT_MS });
  if ((await page.getAttribute('body', 'data-state')) !== 'ready') {
    throw new Error(`the example failed to start: ${await page.textContent('#error')}`);
  }
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the browser example of the mocks in headless Chromium', () => {
  it('bundles msw/browser, ajv, lowdb and yaml, and no Node built-in', async () => {
    for (const name of ['msw', 'ajv', 'lowdb', 'yaml'])
      expect(build.packages, name).toHaveProperty(name);
    const meta = JSON.parse(
      await readFile(here('../../examples/browser/dist/meta.json'), 'utf8'),
    ) as {
      inputs: Record<string, { imports: { path: string }[] }>;
    };
    const builtins = Object.entries(meta.inputs).flatMap(([file, input]) =>
      input.imports.filter((i) => i.path.startsWith('node:')).map((i) => `${file} -> ${i.path}`),
    );
    expect(builtins).toEqual([]);
  });

  it('runs under the mock service worker, active and controlling the page', async () => {
    const worker = await page.evaluate(() => ({
      url: navigator.serviceWorker.controller?.scriptURL,
      state: navigator.serviceWorker.controller?.state,
    }));
    expect(worker).toEqual({ url: `${server.origin}/mockServiceWorker.js`, state: 'activated' });
  });

  it('logs in as the demo admin and shows the newest users', async () => {
    await expect.poll(() => page.textContent('#status')).toContain('36 users');
    const ids = await page
      .locator('#users tbody tr')
      .evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.id));
    expect(ids).toEqual(['36', '35', '34', '33', '32', '31', '30', '29', '28', '27']);
    expect(await page.isHidden('#error')).toBe(true);
  });

  it('creates a user through the form and shows it in the list', async () => {
    await page.fill('input[name=name]', 'Browser Person');
    await page.fill('input[name=email]', 'browser.person@example.com');
    await page.fill('input[name=age]', '33');
    await page.click('button[type=submit]');
    const row = page.locator('#users tbody tr[data-id="37"]');
    await row.waitFor({ timeout: TIMEOUT_MS });
    expect(await row.locator('td').allTextContents()).toEqual([
      '37',
      'Browser Person',
      'browser.person@example.com',
      '33',
      'INACTIVE',
    ]);
    expect(await row.getAttribute('class')).toBe('created');
    expect(await page.textContent('#status')).toContain('37 users');
    await mkdir(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });

  it('shows the problem+json detail of an error answer', async () => {
    await page.fill('input[name=email]', 'ADMIN@example.com');
    await page.click('button[type=submit]');
    await page.waitForSelector('#error:not([hidden])', { timeout: TIMEOUT_MS });
    expect(await page.textContent('#error')).toBe(
      '409 Email already in use: Another user already has the email ADMIN@example.com.',
    );
  });

  it('asks no host but the static server, which never sees an API call', () => {
    const foreign = requests.filter(
      (url) => !/^(data|blob):/.test(url) && new URL(url).origin !== server.origin,
    );
    expect(foreign, 'requests to other hosts').toEqual([]);
    expect(server.paths).toContain('/mockServiceWorker.js');
    expect(server.paths.filter((path) => path.startsWith('/api'))).toEqual([]);
  });

  it('had every API call answered by the service worker', () => {
    expect(apiResponses.map((r) => `${r.status} ${new URL(r.url).pathname}`)).toEqual([
      '200 /api/v1/auth/login',
      '200 /api/v1/users',
      '201 /api/v1/users',
      '200 /api/v1/users',
      '409 /api/v1/users',
    ]);
    expect(apiResponses.filter((r) => !r.fromServiceWorker)).toEqual([]);
  });

  it('logs no errors but the 409 it provoked', () => {
    expect(problems.filter((p) => !/status of 409/.test(p))).toEqual([]);
  });

  it('records the page’s interactions in memory, which a browser test saves (decision 0112)', async () => {
    const recording = await page.evaluate(() =>
      (window as unknown as { __apikitInteractions(): InteractionFile }).__apikitInteractions(),
    );
    expect(recording.interactions.map((i) => `${i.operationId} ${i.response.status}`)).toEqual(
      expect.arrayContaining(['login 200', 'listUsers 200', 'createUser 201', 'createUser 409']),
    );
    const text = JSON.stringify(recording);
    expect(text).not.toContain('eyJ');
    expect(text).not.toContain(MOCK_DEMO_PASSWORDS.admin);
    const saved = join(await mkdtemp(join(tmpdir(), 'apikit-browser-')), 'interactions.json');
    writeInteractions(saved, recording);
    const file = parseInteractionFile(await readFile(saved, 'utf8'));
    expect(file.interactions.map((i) => i.key)).toEqual(recording.interactions.map((i) => i.key));
  });

  // Last: it adds requests the tests above count. With baseUrl: location.origin, the worker
  // must leave the app's own files to the network and still answer the API (decision 0044).
  it('lets the page’s own files through to its server, and answers the API after them', async () => {
    const seen = await page.evaluate(async () => {
      const asset = await fetch('/dist/app.js?lazy-chunk');
      const html = await fetch('/index.html');
      const api = await fetch('/api/v1/categories/1', {
        headers: { 'X-Request-Id': 'after-assets' },
      });
      return {
        asset: [
          asset.status,
          asset.headers.get('content-type'),
          (await asset.text()).length > 1000,
        ],
        html: [html.status, (await html.text()).includes('answered by the mock service worker')],
        api: [api.status, api.headers.get('content-type'), api.headers.get('x-request-id')],
      };
    });
    expect(seen.asset).toEqual([200, expect.stringMatching(/javascript/), true]);
    expect(seen.html).toEqual([200, true]);
    expect(seen.api).toEqual([401, 'application/problem+json', 'after-assets']);
    expect(server.paths).toEqual(expect.arrayContaining(['/dist/app.js', '/index.html']));
    expect(server.paths.filter((path) => path.startsWith('/api'))).toEqual([]);
  });
});
