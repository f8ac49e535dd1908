/**
 * The source of a browser function `(spec) => ({ requestInterceptor, responseInterceptor })`
 * that makes the /docs page's own copy of a description a demo, so that Execute with the
 * page's defaults succeeds on every operation, Execute again included (decision 0110). The
 * contract keeps its examples: they document the headers and bodies; only the page that
 * sends them on a press of Execute needs them otherwise.
 *
 * - `If-Match`, `If-None-Match`, `If-Modified-Since` and `Idempotency-Key` lose their examples
 *   (in `components.parameters` and inline): an example validator matches no resource (every
 *   PUT, PATCH and DELETE 412, a GET a 304 at best), and a fixed key replays the first answer or
 *   refuses another body with 422. Execute sends none of them unless the visitor types one.
 * - A create (a POST documented with 201) whose example holds a `format: email` property sends
 *   that email made unique (`grace+<stamp>@example.com`) while the body still holds it exactly:
 *   the example can run twice, and after the README's curl session (which creates Grace).
 * - A JSON answer with a `refreshToken` (Log in, refresh) is remembered in the page (not in
 *   storage), and a POST whose `refreshToken` is still a documented example sends it instead.
 *
 * What changes is written into the description of each operation it touches. Plain ES5 in a
 * template literal, like the init script: no backticks, no regular expressions.
 */
export const DOCS_DEMO_SCRIPT = `function (spec) {
  var METHODS = ['get', 'put', 'post', 'delete', 'patch'];
  var NO_EXAMPLE = ['if-match', 'if-none-match', 'if-modified-since', 'idempotency-key'];
  var emails = [];
  var tokens = [];
  var remembered;
  var sent = 0;

  var resolve = function (node) {
    for (var depth = 0; node && typeof node.$ref === 'string' && depth < 20; depth++) {
      if (node.$ref.indexOf('#/') !== 0) return undefined;
      node = node.$ref.slice(2).split('/').reduce(function (at, key) {
        return at == null ? undefined : at[key.split('~1').join('/').split('~0').join('~')];
      }, spec);
    }
    return node;
  };
  var note = function (target, text) {
    target.description = (target.description ? target.description + '\\n\\n' : '') + text;
  };
  var stripExample = function (parameter) {
    if (!parameter || parameter.$ref || parameter.in !== 'header') return;
    if (NO_EXAMPLE.indexOf(String(parameter.name).toLowerCase()) < 0) return;
    if (parameter.example === undefined && parameter.examples === undefined) return;
    delete parameter.example;
    delete parameter.examples;
    if (parameter.schema && !parameter.schema.$ref) delete parameter.schema.example;
    note(parameter, '*On this page:* no example is filled in; sent only when you type a value.');
  };
  // The examples Swagger UI may put in the body: the media type's, else its schema's.
  var bodyExamples = function (operation) {
    var body = resolve(operation.requestBody);
    var media = body && body.content && body.content['application/json'];
    var values = [];
    if (!media) return { properties: {}, values: values };
    Object.keys(media.examples || {}).forEach(function (key) {
      var example = resolve(media.examples[key]);
      if (example && example.value && typeof example.value === 'object') values.push(example.value);
    });
    if (media.example && typeof media.example === 'object') values.push(media.example);
    var schema = resolve(media.schema) || {};
    if (schema.example && typeof schema.example === 'object') values.push(schema.example);
    return { properties: schema.properties || {}, values: values };
  };
  // A request's URL ends with the operation's path: its segments, a template one matching any.
  var onPath = function (template, url) {
    var want = template.split('/').filter(Boolean);
    var got = String(url).split('?')[0].split('#')[0].split('/').filter(Boolean);
    if (got.length < want.length) return false;
    var tail = got.slice(got.length - want.length);
    return want.every(function (segment, index) {
      return segment.charAt(0) === '{' || segment === tail[index];
    });
  };
  var unique = function (email) {
    var at = email.lastIndexOf('@');
    var stamp = Date.now().toString(36) + (sent++).toString(36);
    return email.slice(0, at) + '+' + stamp + email.slice(at);
  };

  var parameters = (spec.components && spec.components.parameters) || {};
  Object.keys(parameters).forEach(function (name) {
    stripExample(parameters[name]);
  });
  Object.keys(spec.paths || {}).forEach(function (path) {
    var item = spec.paths[path] || {};
    (item.parameters || []).forEach(stripExample);
    METHODS.forEach(function (method) {
      var operation = item[method];
      if (!operation) return;
      (operation.parameters || []).forEach(stripExample);
      var examples = bodyExamples(operation);
      var isCreate = method === 'post' && operation.responses && operation.responses['201'];
      var madeUnique = false;
      var refreshed = false;
      examples.values.forEach(function (value) {
        Object.keys(examples.properties).forEach(function (name) {
          var property = resolve(examples.properties[name]);
          if (!isCreate || !property || property.format !== 'email') return;
          if (typeof value[name] !== 'string' || value[name].indexOf('@') < 1) return;
          emails.push({ method: method, path: path, name: name, value: value[name] });
          madeUnique = true;
        });
        if (method === 'post' && typeof value.refreshToken === 'string') {
          tokens.push({ method: method, path: path, value: value.refreshToken });
          refreshed = true;
        }
      });
      if (madeUnique)
        note(operation, '*On this page:* while the email is still an example\\'s, Execute sends it ' +
          'made unique (grace+k3x9a0@example.com), so that the example can run again; type ' +
          'another email to send it as it is.');
      if (refreshed)
        note(operation, '*On this page:* while the body holds the example\\'s refreshToken, ' +
          'Execute sends the one the last Log in or refresh on this page answered (Log in first).');
    });
  });

  var matching = function (list, request) {
    return list.filter(function (entry) {
      return entry.method === String(request.method).toLowerCase() && onPath(entry.path, request.url);
    });
  };
  return {
    requestInterceptor: function (request) {
      var body = request.body;
      var parsed = body;
      if (typeof body === 'string') {
        try {
          parsed = JSON.parse(body);
        } catch (error) {
          return request;
        }
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return request;
      var changed = false;
      matching(emails, request).forEach(function (email) {
        if (parsed[email.name] !== email.value) return;
        parsed[email.name] = unique(email.value);
        changed = true;
      });
      matching(tokens, request).forEach(function (token) {
        if (!remembered || parsed.refreshToken !== token.value) return;
        parsed.refreshToken = remembered;
        changed = true;
      });
      if (changed) request.body = typeof body === 'string' ? JSON.stringify(parsed, null, 2) : parsed;
      return request;
    },
    responseInterceptor: function (response) {
      var body = response && response.body;
      if (response && response.ok && body && typeof body.refreshToken === 'string')
        remembered = body.refreshToken;
      return response;
    },
  };
}`;
