import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/server/start-mock-server.js';
import { DOCS_ASSETS, swaggerUi } from '../../node-runtime/docs-assets.js';
import { startTestServer, type TestServer } from '../start-test-server.js';
import { expectProblem } from '../support/hardening/expect-problem.js';
import { httpCall } from '../support/hardening/http-call.js';

/*
 * Issue 34, item 3 (decision 0108): /docs serves exactly the swagger-ui-dist files its page
 * loads, at URLs naming the package's version and cached for good; nothing else of the
 * package (its package.json, its sources, its maps) is reachable. Both servers serve /docs.
 */

const IMMUTABLE = 'public, max-age=31536000, immutable';
const ui = swaggerUi()!;

let server: TestServer;
let mock: RunningMockServer;
const origins: Record<string, string> = {};

beforeAll(async () => {
  [server, mock] = await Promise.all([
    startTestServer(),
    startMockServer({
      port: 0,
      adminPassword: 'docs-mock-admin-password',
      userPassword: 'docs-mock-user-password',
      passwordIterations: 1000,
    }),
  ]);
  origins['the reference server'] = server.url;
  origins['apikit mock'] = mock.url;
});
afterAll(async () => {
  await Promise.all([mock?.close(), server?.close()]);
});

it('names the assets by the installed swagger-ui-dist version', async () => {
  const { version } = (await import('swagger-ui-dist/package.json', { with: { type: 'json' } }))
    .default as { version: string };
  expect(ui.assets).toBe(`/docs/assets/${version}`);
});

describe.each(['the reference server', 'apikit mock'])('%s', (name) => {
  const get = (path: string) => httpCall({ method: 'GET', url: `${origins[name]}${path}` });

  it('links exactly the allowed assets from the page', async () => {
    const page = await get('/docs');
    expect(page.status).toBe(200);
    const linked = [...page.text.matchAll(/(?:href|src)="(\/docs\/assets\/[^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(linked.sort()).toEqual(DOCS_ASSETS.map((file) => `${ui.assets}/${file}`).sort());
  });

  it.each([...DOCS_ASSETS])('serves %s with immutable caching', async (file) => {
    const res = await get(`${ui.assets}/${file}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(res.text.length).toBeGreaterThan(0);
  });

  it.each([
    '/docs/assets/package.json',
    '/docs/assets/index.js',
    '/docs/assets/swagger-ui.css',
    `${ui.assets}/package.json`,
    `${ui.assets}/index.js`,
    `${ui.assets}/index.html`,
    `${ui.assets}/swagger-ui-bundle.js.map`,
    `${ui.assets}/swagger-initializer.js`,
    '/docs/assets/0.0.1/swagger-ui.css',
    '/docs/nothing',
  ])('answers %s 404 problem+json', async (path) => {
    const res = await get(path);
    expectProblem(res, 404, 'not-found');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('keeps the page and its script revalidated: their URLs do not change', async () => {
    for (const path of ['/docs', '/docs/init.js'])
      expect((await get(path)).headers.get('cache-control'), path).toBe('no-cache');
  });
});
