import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { type Router } from 'express';

/**
 * The folder of swagger-ui-dist's assets. Resolved rather than taken from the package's main
 * module (`getAbsoluteFSPath`), which loads the whole Swagger UI bundle (several MB of
 * JavaScript, about half a second) into the server just to name its folder.
 */
const SWAGGER_UI_DIR = dirname(
  createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'),
);

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>User/Order Service: API reference</title>
    <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" />
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

// An external script rather than an inline one, so helmet's default CSP (script-src 'self') holds.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  validatorUrl: null,
});
`;

/**
 * `GET /docs`: an interactive reference (Swagger UI) of the served contract, with every asset
 * served locally from the swagger-ui-dist package: the page makes no outside request.
 */
export function docsPage(): Router {
  const router = express.Router({ strict: true, caseSensitive: true });
  router.get('/docs', (_req, res) => {
    res.type('html').set('Cache-Control', 'no-cache').send(PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('js').set('Cache-Control', 'no-cache').send(INIT);
  });
  router.use('/docs/assets', express.static(SWAGGER_UI_DIR, { index: false, maxAge: '1h' }));
  return router;
}
