import { ApiProblem } from '../domain/api-problem.js';

/** The contract as served: the bundled description as JSON and as YAML. */
export interface OpenDocuments {
  json: string;
  yaml: string;
}

export interface OpenRouteAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

const ALLOW = 'GET, HEAD, OPTIONS';

/**
 * The routes outside the API base that need no token: liveness and the contract itself.
 * (`/docs` is a page, served by the Express adapter.) Undefined for any other path.
 */
export function openRoute(
  path: string,
  method: string,
  documents: OpenDocuments,
): OpenRouteAnswer | undefined {
  const content: Record<string, [string, string] | undefined> = {
    '/healthz': ['application/json', JSON.stringify({ status: 'ok' })],
    '/openapi.json': ['application/json', documents.json],
    '/openapi.yaml': ['application/yaml', documents.yaml],
  };
  const found = content[path];
  if (!found) return undefined;
  if (method === 'OPTIONS') return { status: 204, headers: { Allow: ALLOW }, body: null };
  if (method !== 'GET' && method !== 'HEAD') {
    throw new ApiProblem(
      'method-not-allowed',
      `${method} is not supported on ${path}; use ${ALLOW}`,
      { headers: { Allow: ALLOW } },
    );
  }
  const [type, body] = found;
  const cache = path === '/healthz' ? 'no-store' : 'public, max-age=300';
  return { status: 200, headers: { 'Content-Type': type, 'Cache-Control': cache }, body };
}
