import type { OpenAPIV3 } from 'openapi-types';

/** A route the service serves outside its operations, open to all (no credentials). */
export interface ServedRoute {
  method: string;
  /**
   * The path below the server's root: the server URL without the path its `servers[0].url`
   * declares after its variables (`/healthz` beside `{base_url}/api/v1`).
   */
  path: string;
  /** The route serves this description itself, as `json` or `yaml`. */
  contract?: 'json' | 'yaml';
}

/** The CORS header lists a service declares (CORS, the Fetch standard). */
export interface CorsDeclaration {
  /** Request headers a preflight allows (`Access-Control-Allow-Headers`). */
  allowHeaders: string[];
  /** Response headers a script may read (`Access-Control-Expose-Headers`). */
  exposeHeaders: string[];
  /**
   * What a preflight's `Access-Control-Allow-Methods` lists, when declared: `'Allow'`, the
   * methods of the path as its `Allow` header lists them; or a fixed list of methods.
   */
  allowMethods?: 'Allow' | string[];
}

/**
 * The root `x-apikit-service` object: what a service does around its operations, declared so
 * that test tools judge it only where a description says so. Read through
 * `apikit-extensions.ts`, like every `x-apikit-*`; a value of the wrong type counts as absent.
 */
export interface ServiceDeclaration {
  /** Routes outside the server URL, open to all; empty when not declared. */
  servedRoutes: ServedRoute[];
  /** The header carrying a request id: echoed when the client sends one, generated otherwise. */
  requestId: string | undefined;
  /** The property of a problem body repeating the request id header's value (`requestId`). */
  problemRequestId: string | undefined;
  /**
   * `RateLimit` and `RateLimit-Policy` in the structured-field syntax of
   * draft-ietf-httpapi-ratelimit-headers (draft 8 on) travel together on every answer of an
   * operation (OPTIONS aside) while a limit is on.
   */
  rateLimitHeaders: boolean;
  /** The CORS lists, when declared. */
  cors: CorsDeclaration | undefined;
  /**
   * Concurrent writes to one resource are applied one after another: PATCHes of different
   * properties sent at once all hold afterwards (none is lost to a stale read).
   */
  serializedWrites: boolean;
  /**
   * The operationId of the operation that restores the initial data set: what was made since is
   * gone, ids continue past every id assigned before (none reused), refresh tokens issued
   * before are refused, and Idempotency-Key values sent before are forgotten.
   */
  reset: string | undefined;
}

/** Read once per document: the response checks ask for it on every answer of a run. */
const cachedServiceDeclaration = new WeakMap<OpenAPIV3.Document, ServiceDeclaration>();

/**
 * What a description declares in its root `x-apikit-service`; one without it declares nothing.
 *
 * @example
 * // x-apikit-service: { requestId: X-Request-Id, servedRoutes: [{ method: GET, path: /healthz }] }
 * serviceDeclaration(doc).requestId; // 'X-Request-Id'
 */
export function serviceDeclaration(doc: OpenAPIV3.Document): ServiceDeclaration {
  let known = cachedServiceDeclaration.get(doc);
  if (!known) cachedServiceDeclaration.set(doc, (known = readServiceDeclaration(doc)));
  return known;
}

function readServiceDeclaration(doc: OpenAPIV3.Document): ServiceDeclaration {
  const declared: unknown = (doc as unknown as Record<string, unknown>)['x-apikit-service'];
  const object = typeof declared === 'object' && declared !== null ? declared : {};
  const get = (name: string): unknown => Reflect.get(object, name);
  const requestId = get('requestId');
  const problemRequestId = get('problemRequestId');
  const cors = get('cors');
  const corsGet = (name: string): unknown =>
    typeof cors === 'object' && cors !== null ? Reflect.get(cors, name) : undefined;
  return {
    servedRoutes: Array.isArray(get('servedRoutes'))
      ? (get('servedRoutes') as unknown[]).flatMap(servedRoute)
      : [],
    requestId:
      typeof requestId === 'string' && /^[A-Za-z0-9-]+$/.test(requestId) ? requestId : undefined,
    problemRequestId:
      typeof requestId === 'string' && typeof problemRequestId === 'string'
        ? problemRequestId
        : undefined,
    rateLimitHeaders: get('rateLimitHeaders') === true,
    cors:
      Array.isArray(corsGet('allowHeaders')) && Array.isArray(corsGet('exposeHeaders'))
        ? {
            allowHeaders: strings(corsGet('allowHeaders')),
            exposeHeaders: strings(corsGet('exposeHeaders')),
            ...allowMethods(corsGet('allowMethods')),
          }
        : undefined,
    serializedWrites: get('serializedWrites') === true,
    reset: typeof get('reset') === 'string' ? (get('reset') as string) : undefined,
  };
}

function servedRoute(value: unknown): ServedRoute[] {
  if (typeof value !== 'object' || value === null) return [];
  const method: unknown = Reflect.get(value, 'method');
  const path: unknown = Reflect.get(value, 'path');
  const contract: unknown = Reflect.get(value, 'contract');
  if (typeof method !== 'string' || typeof path !== 'string' || !path.startsWith('/')) return [];
  return [
    {
      method: method.toUpperCase(),
      path,
      ...(contract === 'json' || contract === 'yaml' ? { contract } : {}),
    },
  ];
}

/** `allowMethods` as declared: `Allow` (in any letter case) or a list of methods; else absent. */
function allowMethods(value: unknown): Pick<CorsDeclaration, 'allowMethods'> {
  if (typeof value === 'string' && value.toLowerCase() === 'allow')
    return { allowMethods: 'Allow' };
  if (Array.isArray(value)) return { allowMethods: strings(value).map((m) => m.toUpperCase()) };
  return {};
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * The path the description's first server URL declares after its variables (`/api/v1` for
 * `{base_url}/api/v1`), or undefined when it declares none or no server.
 *
 * @example
 * serverPath(doc); // '/api/v1'
 */
export function serverPath(doc: OpenAPIV3.Document): string | undefined {
  const url = doc.servers?.[0]?.url;
  if (url === undefined) return undefined;
  const afterVariables = url.replace(/^.*\}/, '');
  const path = /^[a-z][a-z0-9+.-]*:\/\//i.test(afterVariables)
    ? new URL(afterVariables).pathname
    : afterVariables;
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed : trimmed === '' ? '' : undefined;
}
