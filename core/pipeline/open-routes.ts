import { ApiProblem } from '../domain/api-problem.js';

/**
 * The contract as served: the bundled description as JSON and as YAML, each made when first
 * asked for (see {@link openDocuments}).
 */
export interface OpenDocuments {
  json(): string;
  yaml(): string;
}

/**
 * {@link OpenDocuments} that make each text once, on the first request for it. Few clients ever
 * ask, and making them is not free: writing the YAML of our contract takes 70-160 ms, which
 * every start of the mocks paid. (The server's compact JSON is already made once, by
 * `loadBundledSpec().json()`, and its YAML is the file as read.)
 *
 * @example
 * const documents = openDocuments({ json: () => JSON.stringify(bundled), yaml: () => stringify(bundled) });
 */
export function openDocuments(make: { json: () => string; yaml: () => string }): OpenDocuments {
  let json: string | undefined;
  let yaml: string | undefined;
  return { json: () => (json ??= make.json()), yaml: () => (yaml ??= make.yaml()) };
}

export interface OpenRouteAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

const ALLOW = 'GET, HEAD, OPTIONS';

const HEALTHY = JSON.stringify({ status: 'ok' });
const READY = JSON.stringify({ status: 'ready' });

/** The open routes a balancer or orchestrator polls: never cached. */
const PROBES = new Set(['/healthz', '/readyz']);

/** Each open route's media type and body. */
const OPEN_CONTENT: Record<string, [string, (documents: OpenDocuments) => string] | undefined> = {
  '/healthz': ['application/json', () => HEALTHY],
  // Readiness: always ready here (the mocks); the reference server answers it in front of the
  // pipeline, 503 while it drains or cannot reach its store (decision 0111).
  '/readyz': ['application/json', () => READY],
  '/openapi.json': ['application/json', (documents) => documents.json()],
  '/openapi.yaml': ['application/yaml', (documents) => documents.yaml()],
};

/**
 * The routes outside the API base that need no token: liveness, readiness and the contract itself.
 * (`/docs` is a page, served by the Express adapter.) Undefined for any other path.
 */
export function openRoute(
  path: string,
  method: string,
  documents: OpenDocuments,
): OpenRouteAnswer | undefined {
  const found = OPEN_CONTENT[path];
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
  const cache = PROBES.has(path) ? 'no-store' : 'public, max-age=300';
  return {
    status: 200,
    headers: { 'Content-Type': type, 'Cache-Control': cache },
    body: body(documents),
  };
}
