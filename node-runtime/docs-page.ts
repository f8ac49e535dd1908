import express, { type Request, type Response, type Router } from 'express';
import { DOCS_ASSETS, swaggerUi, type SwaggerUi } from './docs-assets.js';
import { DOCS_INIT_SCRIPT } from './docs-init-script.js';

/**
 * swagger-ui-dist, resolved once: its folder and version, or undefined without the optional
 * peer (decision 0048).
 */
const SWAGGER_UI = swaggerUi();

/** `/docs` where swagger-ui-dist is not installed: how to get the page, and the contract. */
const NO_SWAGGER_UI = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>User/Order Service: API reference</title>
  </head>
  <body>
    <p>The interactive reference needs swagger-ui-dist: <code>npm i -D swagger-ui-dist</code></p>
    <p>The contract: <a href="/openapi.json">/openapi.json</a>, <a href="/openapi.yaml">/openapi.yaml</a></p>
  </body>
</html>
`;

/**
 * The page, its assets under a path naming swagger-ui-dist's version: another version is
 * another URL, so each may be cached for good (decision 0108).
 */
const page = ({ assets }: SwaggerUi) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>User/Order Service: API reference</title>
    <link rel="icon" type="image/png" href="${assets}/favicon-32x32.png" />
    <link rel="stylesheet" href="${assets}/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${assets}/swagger-ui-bundle.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

/** Where `GET /` points an API client (the browser is sent to /docs). */
const INDEX = JSON.stringify({
  name: 'User/Order Service',
  docs: '/docs',
  api: '/api/v1',
  openapi: ['/openapi.json', '/openapi.yaml'],
  health: '/healthz',
});

/**
 * `GET /docs`: an interactive reference (Swagger UI) of the served contract, with every asset
 * served locally from the swagger-ui-dist package: the page makes no outside request. Only
 * the files the page loads are served, each cached for good at its versioned URL (0108);
 * anything else under /docs falls through to the caller's 404 problem. `/docs/` redirects to
 * it. `GET /` sends a browser to /docs and tells an API client, in JSON, where the docs, the
 * API and the contract are (decision 0056).
 */
export function docsPage(): Router {
  const router = express.Router({ strict: true, caseSensitive: true });
  router.get('/', (req: Request, res: Response) => {
    res.set('Vary', 'Accept').set('Cache-Control', 'no-cache');
    // A browser asks for text/html first; curl (*/*) and fetch clients get the JSON index.
    if (req.accepts(['application/json', 'text/html']) === 'text/html')
      return res.redirect(302, '/docs');
    res.type('json').send(INDEX);
  });
  const html = SWAGGER_UI ? page(SWAGGER_UI) : NO_SWAGGER_UI;
  router.get('/docs', (_req, res) => {
    res.type('html').set('Cache-Control', 'no-cache').send(html);
  });
  router.get('/docs/', (_req, res) => res.redirect(301, '/docs'));
  router.get('/docs/init.js', (_req, res) => {
    res.type('js').set('Cache-Control', 'no-cache').send(DOCS_INIT_SCRIPT);
  });
  if (SWAGGER_UI) {
    const { dir, assets } = SWAGGER_UI;
    // An allow-list, not the package folder: its package.json, sources and maps are no one's.
    // Looked up by the whole path, so that no version string is parsed as a route pattern.
    const allowed = new Map(DOCS_ASSETS.map((file) => [`${assets}/${file}`, file]));
    router.get(/^\/docs\/assets\//, (req, res, next) => {
      const file = allowed.get(req.path);
      if (!file) return next();
      res.sendFile(file, { root: dir, maxAge: '1y', immutable: true }, (error?: Error) => {
        if (error && !res.headersSent) next(error);
      });
    });
  }
  return router;
}
