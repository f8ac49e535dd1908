import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { swaggerUi } from '../../node-runtime/docs-assets.js';
import { loadSpec, type OpenApiDocument } from '../../spec/load-spec.js';
import { startTestServer, type TestServer } from '../start-test-server.js';
import { launchChromium } from '../launch-chromium.js';

/*
 * GET /docs in a real browser: Debian's Chromium (scripts/ensure-chromium.sh, run by
 * `npm test` as pretest) driven by playwright-core, which downloads no browser of its own.
 */

/** In the git-ignored reports/ folder, for a person to look at: the whole page, tall. */
const SCREENSHOT = fileURLToPath(new URL('../../reports/docs-page.png', import.meta.url));
/** One screen scrolled to the first operations, readable at a glance. */
const OPERATIONS_SCREENSHOT = fileURLToPath(
  new URL('../../reports/docs-page-operations.png', import.meta.url),
);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const TIMEOUT_MS = 20_000;

let server: TestServer;
let browser: Browser | undefined;
let page: Page;
let spec: OpenApiDocument;
/** Every URL the page requested. */
const requests: string[] = [];
/** Failed requests, 4xx/5xx answers, console errors and uncaught page errors, as seen. */
const problems: string[] = [];

beforeAll(async () => {
  [server, spec] = await Promise.all([startTestServer(), loadSpec()]);
  // playwright-core makes a fresh temporary profile (user data dir) for every launch.
  browser = await launchChromium(TIMEOUT_MS);
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('request', (request) => requests.push(request.url()));
  page.on('requestfailed', (request) =>
    problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error')
      problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  const res = await page.goto(`${server.url}/docs`, { waitUntil: 'load', timeout: TIMEOUT_MS });
  if (res?.status() !== 200) throw new Error(`GET /docs answered ${res?.status()}`);
  // Swagger UI fetches /openapi.json, then renders one .opblock per operation.
  await page.waitForFunction(
    (count) => document.querySelectorAll('.opblock').length >= count,
    operations().length,
    { timeout: TIMEOUT_MS },
  );
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** method, path and summary of every operation in the spec. */
function operations() {
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item?.[method]).map((method) => ({
      method,
      path,
      summary: item?.[method]?.summary ?? '',
    })),
  );
}

const key = (op: { method: string; path: string }) => `${op.method} ${op.path}`;

describe('GET /docs in headless Chromium', () => {
  it('renders the title, every tag and every operation with its summary', async () => {
    expect(await page.locator('.info .title').textContent()).toContain(spec.info.title);
    const tags = await page
      .locator('.opblock-tag')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-tag')));
    expect(tags.sort()).toEqual((spec.tags ?? []).map((tag) => tag.name).sort());
    const shown = await page.locator('.opblock').evaluateAll((blocks) =>
      blocks.map((block) => ({
        method: block.querySelector('.opblock-summary-method')?.textContent?.toLowerCase() ?? '',
        path: block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '',
        summary: block.querySelector('.opblock-summary-description')?.textContent ?? '',
      })),
    );
    const expected = operations();
    expect(shown.map(key).sort()).toEqual(expected.map(key).sort());
    for (const op of expected) {
      expect(shown.find((s) => key(s) === key(op))?.summary, key(op)).toBe(op.summary);
    }
    // listUsers, createUser, getOrder, login: on screen, not only in the DOM.
    for (const [method, path] of [
      ['get', '/users'],
      ['post', '/users'],
      ['get', '/orders/{id}'],
      ['post', '/auth/login'],
    ] as const) {
      const block = page.locator(`.opblock-${method}`, {
        has: page.locator(`.opblock-summary-path[data-path="${path}"]`),
      });
      expect(await block.first().isVisible(), `${method} ${path} visible`).toBe(true);
    }

    await mkdir(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    await page
      .locator('.opblock-tag-section')
      .first()
      .evaluate((section) => section.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: OPERATIONS_SCREENSHOT });
  });

  it('asks no host but the server: every asset and the spec are served locally', () => {
    const origin = new URL(server.url).origin;
    const foreign = requests.filter(
      (url) => !/^(data|blob):/.test(url) && new URL(url).origin !== origin,
    );
    expect(foreign, 'requests to other hosts').toEqual([]);
    expect(requests).toContain(`${origin}/openapi.json`);
    // At its versioned URL, cached for good (decision 0108).
    expect(requests).toContain(`${origin}${swaggerUi()?.assets}/swagger-ui-bundle.js`);
  });

  it('loads without console errors, failed requests or error answers', () => {
    // Fails today: the page declares no icon, so Chromium asks for /favicon.ico and logs its 404.
    expect(problems).toEqual([]);
  });
});
