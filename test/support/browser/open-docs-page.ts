import { type Browser, type Page, type Request } from 'playwright-core';
import { startMockServer } from '../../../mocks/server/start-mock-server.js';
import { createServer } from '../../../reference-server/create-server.js';
import { launchChromium } from '../../launch-chromium.js';

/** The two servers that serve /docs on the contract: the reference server and `apikit mock`. */
export const DOCS_SERVERS = [
  { name: 'on the reference server', start: () => createServer({ port: 0, memory: true }) },
  { name: 'on apikit mock (MSW)', start: () => startMockServer({ port: 0 }) },
];

/** A /docs page open in Chromium, and what went wrong on it so far. */
export interface OpenDocsPage {
  browser: Browser;
  page: Page;
  /** Console errors and page errors, as seen. */
  problems: string[];
}

/**
 * Opens `${origin}/docs` in headless Chromium and waits for Swagger UI to have rendered the
 * operations; `onApiRequest` sees every request the page sends to `/api/`.
 */
export async function openDocsPage(
  origin: string,
  timeoutMs: number,
  onApiRequest: (request: Request) => void,
): Promise<OpenDocsPage> {
  const browser = await launchChromium(timeoutMs);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/')) onApiRequest(request);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  const res = await page.goto(`${origin}/docs`, { waitUntil: 'load', timeout: timeoutMs });
  if (res?.status() !== 200) throw new Error(`GET /docs answered ${res?.status()}`);
  await page.waitForSelector('#operations-auth-login', { timeout: timeoutMs });
  return { browser, page, problems };
}
