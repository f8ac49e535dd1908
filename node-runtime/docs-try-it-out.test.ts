import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrismMock } from '../mocks/prism/start-prism-mock.js';
import { launchChromium } from '../test/launch-chromium.js';
import { DOCS_SERVERS, openDocsPage } from '../test/support/browser/open-docs-page.js';

/*
 * /docs "Try it out" end to end in Debian's Chromium: a visitor of `npm start`'s page logs in
 * with the login operation's own example (the demo administrator), authorizes with the token
 * and lists users. The server runs with the demo passwords, on port 0 (so not on the
 * contract's default http://localhost:3000): the page must call its own origin. The same page
 * on `apikit mock` (the MSW mocks over HTTP) works the same way.
 */

const TIMEOUT_MS = 20_000;

/** Opens an operation, presses "Try it out" and "Execute"; answers its shown status and body. */
async function tryItOut(operation: Locator): Promise<{ status: string; body: string }> {
  await operation.locator('.opblock-summary').first().click();
  await operation.locator('button.try-out__btn').click();
  await operation.locator('button.execute').click();
  const status = operation.locator('.live-responses-table .response .response-col_status');
  await status.first().waitFor({ timeout: TIMEOUT_MS });
  const body = operation.locator('.live-responses-table .response-col_description pre').first();
  return {
    status: ((await status.first().textContent()) ?? '').trim(),
    body: (await body.textContent()) ?? '',
  };
}

describe.each(DOCS_SERVERS)('$name', ({ start }) => {
  let server: { url: string; close(): Promise<void> };
  let browser: Browser | undefined;
  let page: Page;
  /** API calls the page made: method, URL, Authorization header. */
  const apiCalls: { method: string; url: string; authorization?: string }[] = [];
  /** CSP violations and page errors, as seen. */
  let problems: string[] = [];

  beforeAll(async () => {
    // The demo passwords: what `npm start` has, and what the spec's login example sends.
    server = await start();
    ({ browser, page, problems } = await openDocsPage(server.url, TIMEOUT_MS, (request) =>
      apiCalls.push({
        method: request.method(),
        url: request.url(),
        authorization: request.headers()['authorization'],
      }),
    ));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  describe('/docs "Try it out" in headless Chromium', () => {
    it("offers the page's own origin as the server", async () => {
      // The concrete URL, not the contract's `{base_url}/api/v1` with a variable box (0110).
      const servers = await page.locator('.servers select option').allTextContents();
      expect(servers[0]).toContain(`${server.url}/api/v1`);
      expect(await page.locator('.servers input').count()).toBe(0);
    });

    it('logs in with the login example, authorizes with the token, lists users: 200', async () => {
      const login = await tryItOut(page.locator('#operations-auth-login'));
      expect(login.status, login.body).toBe('200');
      const { accessToken } = JSON.parse(login.body) as { accessToken: string };
      expect(accessToken).toMatch(/^eyJ/);
      expect(apiCalls[0]).toMatchObject({
        method: 'POST',
        url: `${server.url}/api/v1/auth/login`,
      });

      await page.locator('.auth-wrapper .authorize').first().click();
      const dialog = page.locator('.dialog-ux .modal-ux');
      await dialog.locator('input').first().fill(accessToken);
      await dialog.locator('button.authorize').click();
      await dialog.locator('button.btn-done').click();

      const list = await tryItOut(page.locator('#operations-users-listUsers'));
      expect(list.status, list.body).toBe('200');
      // The demo data, as the page's default parameters select it.
      const users = JSON.parse(list.body) as { content: { email: string }[] };
      expect(users.content.length).toBeGreaterThan(0);
      expect(users.content.every((u) => u.email.includes('@'))).toBe(true);
      expect(apiCalls.at(-1)).toMatchObject({
        method: 'GET',
        url: expect.stringMatching(new RegExp(`^${server.url}/api/v1/users(\\?|$)`)),
        authorization: `Bearer ${accessToken}`,
      });
      expect(problems).toEqual([]);
    }, 60_000);
  });
});

describe('/docs for a description whose first server is a fixed URL (apikit mock --engine prism)', () => {
  it("offers this page's origin with that server's path first", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'apikit-docs-'));
    const file = join(dir, 'things.yaml');
    await writeFile(
      file,
      `openapi: 3.0.3
info: { title: Things, version: 1.0.0 }
servers: [{ url: 'https://things.example/v2/' }]
paths:
  /things:
    get:
      responses:
        '200':
          description: Things.
          content: { application/json: { example: [{ id: 1 }] } }
`,
    );
    const mock = await startPrismMock({ specPath: file, port: 0 });
    const browser = await launchChromium(TIMEOUT_MS);
    try {
      const page = await browser.newPage();
      await page.goto(`${mock.url}/docs`, { waitUntil: 'load', timeout: TIMEOUT_MS });
      await page.waitForSelector('.servers select', { timeout: TIMEOUT_MS });
      const options = await page.locator('.servers select option').allTextContents();
      expect(options[0]).toContain(`${mock.url}/v2`);
      expect(options.join(' ')).toContain('https://things.example/v2/');
      const operation = page.locator('.opblock').first();
      const result = await tryItOut(operation);
      expect(result.status, result.body).toBe('200');
      expect(JSON.parse(result.body)).toEqual([{ id: 1 }]);
    } finally {
      await browser.close();
      await mock.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
