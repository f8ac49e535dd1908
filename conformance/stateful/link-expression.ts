/** What a runtime expression can read: the request that was sent and the response. */
export interface ExpressionSource {
  request: {
    path: Record<string, unknown>;
    query: Record<string, unknown>;
    headers: Record<string, string>;
    body: unknown;
    url: string;
    method: string;
  };
  response: { status: number; headers: Headers; body: unknown };
}

/**
 * Evaluates an OpenAPI 3.0 runtime expression (`$response.body#/id`,
 * `$response.header.Location`, `$request.path.id`, `$statusCode`, ...) or returns a constant
 * as is. Undefined when the expression names nothing.
 *
 * @example
 * evaluateExpression('$response.body#/id', source); // 42
 */
export function evaluateExpression(expression: unknown, source: ExpressionSource): unknown {
  // A link's requestBody may be an object or array holding expressions (`{ refreshToken: $response.body#/refreshToken }`).
  if (Array.isArray(expression)) return expression.map((item) => evaluateExpression(item, source));
  if (expression !== null && typeof expression === 'object') {
    return Object.fromEntries(
      Object.entries(expression).map(([k, v]) => [k, evaluateExpression(v, source)]),
    );
  }
  if (typeof expression !== 'string') return expression;
  // Embedded expressions in a string: `Bearer {$response.body#/token}`.
  if (!expression.startsWith('$')) {
    return expression.includes('{$')
      ? expression.replace(/\{(\$[^}]+)\}/g, (_m, inner: string) =>
          String(evaluateExpression(inner, source) ?? ''),
        )
      : expression;
  }
  if (expression === '$url') return source.request.url;
  if (expression === '$method') return source.request.method;
  if (expression === '$statusCode') return source.response.status;
  const body = /^\$(request|response)\.body(?:#(.*))?$/.exec(expression);
  if (body) {
    const root = body[1] === 'request' ? source.request.body : source.response.body;
    return body[2] === undefined ? root : resolvePointer(root, body[2]);
  }
  const part = /^\$(request|response)\.(header|path|query)\.(.+)$/.exec(expression);
  if (!part) return undefined;
  const [, side, where, name] = part as unknown as [string, string, string, string];
  if (side === 'response')
    return where === 'header' ? (source.response.headers.get(name) ?? undefined) : undefined;
  if (where === 'header') {
    const key = Object.keys(source.request.headers).find(
      (k) => k.toLowerCase() === name.toLowerCase(),
    );
    return key ? source.request.headers[key] : undefined;
  }
  return (where === 'path' ? source.request.path : source.request.query)[name];
}

/** RFC 6901 pointer lookup (`/items/0/id`); undefined when the path does not exist. */
export function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/')
    return pointer === '' ? root : (root as Record<string, unknown>)?.[''];
  let node = root;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
