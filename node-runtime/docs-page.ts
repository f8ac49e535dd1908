import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { type Request, type Response, type Router } from 'express';

/**
 * The folder of swagger-ui-dist's assets. Resolved rather than taken from the package's main
 * module (`getAbsoluteFSPath`), which loads the whole Swagger UI bundle (several MB of
 * JavaScript, about half a second) into the server just to name its folder.
 */
const SWAGGER_UI_DIR = swaggerUiDir();

/** swagger-ui-dist is an optional peer dependency of apikit (decision 0048): undefined without it. */
function swaggerUiDir(): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  } catch {
    return undefined;
  }
}

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

/**
 * An external script rather than an inline one, so helmet's default CSP (script-src 'self')
 * holds. The contract's server URL is `{base_url}/api/v1` with `base_url` defaulting to
 * http://localhost:3000; "Try it out" must call the server that served the page, whatever its
 * origin (127.0.0.1, another port, a proxy's name), so the page fetches the contract itself and
 * makes its own origin the default of `base_url` (still editable in the page) before Swagger
 * UI renders it. A description whose first server is a fixed URL gets this page's origin with
 * that server's path as its first server.
 */
const INIT = `(function () {
  var render = function (spec) {
    window.ui = SwaggerUIBundle({
      spec: spec,
      dom_id: '#swagger-ui',
      deepLinking: true,
      persistAuthorization: true,
      validatorUrl: null,
    });
  };
  fetch('/openapi.json', { headers: { Accept: 'application/json' } })
    .then(function (res) {
      if (!res.ok) throw new Error('GET /openapi.json answered ' + res.status);
      return res.json();
    })
    .then(function (spec) {
      var servers = spec.servers || [];
      servers.forEach(function (server) {
        var base = server.variables && server.variables.base_url;
        if (base) base.default = window.location.origin;
      });
      // A description whose first server is a fixed URL (another API, on a mock): this page's
      // origin with that server's path comes first. No servers at all means '/', which Swagger
      // UI already resolves against the page.
      var first = servers[0];
      if (first && !(first.variables && first.variables.base_url)) {
        try {
          // No regular expressions: this text is a template literal, escapes would be doubled.
          var url = first.url;
          Object.keys(first.variables || {}).forEach(function (name) {
            url = url.split('{' + name + '}').join(String(first.variables[name].default));
          });
          var path = new URL(url, window.location.origin).pathname;
          while (path.charAt(path.length - 1) === '/') path = path.slice(0, -1);
          servers.unshift({
            url: window.location.origin + path,
            description: 'The server of this page',
          });
        } catch (error) {
          // A server URL no browser can parse: the description's servers as they are.
        }
      }
      render(spec);
    })
    .catch(function (error) {
      document.getElementById('swagger-ui').textContent =
        'The API description could not be loaded: ' + error.message;
    });
})();
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
 * served locally from the swagger-ui-dist package: the page makes no outside request.
 * `/docs/` redirects to it. `GET /` sends a browser to /docs and tells an API client, in
 * JSON, where the docs, the API and the contract are (decision 0056).
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
  router.get('/docs', (_req, res) => {
    res
      .type('html')
      .set('Cache-Control', 'no-cache')
      .send(SWAGGER_UI_DIR ? PAGE : NO_SWAGGER_UI);
  });
  router.get('/docs/', (_req, res) => res.redirect(301, '/docs'));
  router.get('/docs/init.js', (_req, res) => {
    res.type('js').set('Cache-Control', 'no-cache').send(INIT);
  });
  if (SWAGGER_UI_DIR)
    router.use('/docs/assets', express.static(SWAGGER_UI_DIR, { index: false, maxAge: '1h' }));
  return router;
}
