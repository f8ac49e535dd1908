import { DOCS_DEMO_SCRIPT } from './docs-demo-script.js';

/**
 * `/docs/init.js`: fetches the served description, makes the page's copy of it call this
 * page's origin and work as a demo, then renders Swagger UI. An external script rather than an
 * inline one, so helmet's default CSP (script-src 'self') holds.
 *
 * Servers: the contract's server URL is `{base_url}/api/v1` with `base_url` defaulting to
 * http://localhost:3000, but "Try it out" must call the server that served the page, whatever
 * its origin (127.0.0.1, another port, a proxy's name). A server with a `base_url` variable is
 * shown as the concrete URL it means here (this origin, the other variables at their defaults),
 * with no variable box: a visitor sees where Execute goes. A description whose first server is
 * a fixed URL (another API, on a mock) gets this page's origin with that server's path first.
 * No servers at all means '/', which Swagger UI already resolves against the page.
 *
 * The demo: `DOCS_DEMO_SCRIPT` (decision 0110).
 */
export const DOCS_INIT_SCRIPT = `(function () {
  var origin = window.location.origin;
  var makeDemo = ${DOCS_DEMO_SCRIPT};
  // No regular expressions: this text is a template literal, escapes would be doubled.
  var fill = function (text, variables) {
    Object.keys(variables || {}).forEach(function (name) {
      text = text.split('{' + name + '}').join(String(variables[name].default));
    });
    return text;
  };
  var fixServers = function (spec) {
    var servers = spec.servers || [];
    var first = servers[0];
    if (first && !(first.variables && first.variables.base_url)) {
      try {
        var path = new URL(fill(first.url, first.variables), origin).pathname;
        while (path.charAt(path.length - 1) === '/') path = path.slice(0, -1);
        servers.unshift({ url: origin + path, description: 'The server of this page' });
      } catch (error) {
        // A server URL no browser can parse: the description's servers as they are.
      }
    }
    servers.forEach(function (server, index) {
      var variables = server.variables;
      if (!variables || !variables.base_url) return;
      variables.base_url.default = origin;
      var concrete = { url: fill(server.url, variables) };
      if (server.description) concrete.description = fill(server.description, variables);
      servers[index] = concrete;
    });
  };
  var render = function (spec, demo) {
    window.ui = SwaggerUIBundle({
      spec: spec,
      dom_id: '#swagger-ui',
      deepLinking: true,
      persistAuthorization: true,
      validatorUrl: null,
      requestInterceptor: demo.requestInterceptor,
      responseInterceptor: demo.responseInterceptor,
    });
  };
  var asIs = {
    requestInterceptor: function (request) { return request; },
    responseInterceptor: function (response) { return response; },
  };
  fetch('/openapi.json', { headers: { Accept: 'application/json' } })
    .then(function (res) {
      if (!res.ok) throw new Error('GET /openapi.json answered ' + res.status);
      return res.json();
    })
    .then(function (spec) {
      fixServers(spec);
      var demo = asIs;
      try {
        demo = makeDemo(spec);
      } catch (error) {
        // A description this page cannot read as a demo is still worth rendering as it is.
        console.warn('The /docs demo defaults are off: ' + error.message);
      }
      render(spec, demo);
    })
    .catch(function (error) {
      document.getElementById('swagger-ui').textContent =
        'The API description could not be loaded: ' + error.message;
    });
})();
`;
