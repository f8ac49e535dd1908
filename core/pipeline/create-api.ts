import type { Ajv } from 'ajv';
import type { OpenApiDocument } from '../../spec/load-spec.js';
import type { SpecOperation } from '../../spec/operations.js';
import { ApiProblem } from '../domain/api-problem.js';
import { authenticate } from '../domain/auth-service.js';
import type { DomainContext, Principal } from '../domain/ports.js';
import { acceptsJson } from './accept-header.js';
import { API_BASE, apiRelativePath } from './api-paths.js';
import type { ApiRequest, ApiResponse } from './api-types.js';
import { isBearerPresented, readBearerToken, wwwAuthenticate } from './bearer-token.js';
import { BodyParser, MAX_BODY_BYTES, describe } from './body-parser.js';
import { corsHeaders, type CorsOrigins } from './cors-policy.js';
import { HeaderMap } from './header-map.js';
import { utf8Length } from './utf8-length.js';
import { IdempotencyKeys, type RememberedAnswer } from './idempotency.js';
import { operationHandlers } from './handlers/operation-handlers.js';
import type { OperationInput } from './handlers/operation-handler.js';
import { openRoute, type OpenDocuments } from './open-routes.js';
import { ParameterParser } from './parameter-parser.js';
import { checkPreconditions, renderResult } from './render-result.js';
import { renderProblem, toApiProblem } from './problem-response.js';
import { requestIdOf } from './request-id.js';
import { createRouteTable } from './route-table.js';

export interface ApiOptions {
  ctx: DomainContext;
  /** The dereferenced contract: routing, validation and roles all come from it. */
  spec: OpenApiDocument;
  /** What `/openapi.json` and `/openapi.yaml` serve. */
  documents: OpenDocuments;
  /** Allowed CORS origins; `'*'` (the default) allows any. */
  corsOrigins?: CorsOrigins;
  /** Told about every unexpected error (a 500), for logging; never about client errors. */
  onUnexpectedError?: (error: unknown, requestId: string) => void;
}

/** The API as one function from request to response, for any transport. */
export interface Api {
  handle(request: ApiRequest): Promise<ApiResponse>;
}

const KNOWN_METHODS = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'CONNECT',
]);
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface Compiled {
  parameters: ParameterParser;
  body: BodyParser;
}

/**
 * Builds the HTTP semantics of the contract over the domain services, transport-agnostic:
 * the Express server and the MSW handlers are thin adapters over `handle`. Checks run in the
 * contract's order: route 404, method 405/501, 401, 403, 406, 413, 415, 400 (path, query),
 * 404 (resource), 412, 400 (body), then the domain's 409/422.
 *
 * @example
 * const api = createApi({ ctx, spec: await loadSpec(), documents });
 * const res = await api.handle({ method: 'GET', path: '/healthz', query: '', headers: new Headers(), body: null });
 */
export function createApi(options: ApiOptions): Api {
  const { ctx, spec } = options;
  const corsOrigins = options.corsOrigins ?? '*';
  const routes = createRouteTable(spec);
  const compiled = new Map<string, Compiled>();
  const idempotency = new IdempotencyKeys(ctx);
  // ajv is imported on the first request that validates anything, and each operation's
  // validators are compiled on its first request: neither is on the way to a listening server.
  let ajv: Ajv | undefined;
  let loadingAjv: Promise<Ajv> | undefined;
  const loadAjv = (): Promise<Ajv> =>
    (loadingAjv ??= import('../../spec/create-ajv.js').then(({ createAjv }) => {
      ajv = createAjv();
      return ajv;
    }));
  const compile = async (op: SpecOperation): Promise<Compiled> => {
    const validator = ajv ?? (await loadAjv());
    let c = compiled.get(op.operationId);
    if (!c) {
      c = { parameters: new ParameterParser(op, validator), body: new BodyParser(op, validator) };
      compiled.set(op.operationId, c);
    }
    return c;
  };

  async function handle(request: ApiRequest): Promise<ApiResponse> {
    const requestId = requestIdOf(request.headers.get('x-request-id'));
    const method = request.method.toUpperCase();
    const relative = apiRelativePath(request.path);
    const instance = relative === undefined ? request.path : API_BASE + relative;
    const headers = new HeaderMap();
    let tokenPresented = false;
    let operationId: string | undefined;
    let status: number;
    let body: string | null;
    try {
      const open =
        relative === undefined ? openRoute(request.path, method, options.documents) : undefined;
      if (relative === undefined && !open)
        throw new ApiProblem('not-found', `No resource at ${request.path}`);
      if (open) {
        ({ status, body } = open);
        for (const [k, v] of Object.entries(open.headers)) headers.set(k, v);
      } else {
        const match = request.route ?? routes.match(relative as string);
        if (!match) throw new ApiProblem('not-found', `No resource at ${request.path}`);
        const { route } = match;
        if (!KNOWN_METHODS.has(method)) {
          throw new ApiProblem(
            'not-implemented',
            `The method ${method} is not implemented by this server`,
          );
        }
        if (method === 'OPTIONS') {
          operationId = route.operations.get('OPTIONS')?.operationId;
          const preflight = request.headers.has('access-control-request-method');
          headers.set('Allow', route.allow);
          if (route.operations.has('PATCH'))
            headers.set('Accept-Patch', acceptPatch(route.operations.get('PATCH')!));
          for (const [k, v] of Object.entries(
            corsHeaders(
              corsOrigins,
              request.headers.get('origin'),
              preflight ? { allow: route.allow } : undefined,
            ),
          )) {
            headers.set(k, v);
          }
          return finish(204, null);
        }
        const op = route.operations.get(method === 'HEAD' ? 'GET' : method);
        if (!op) {
          throw new ApiProblem(
            'method-not-allowed',
            `${method} is not supported on ${route.template}; use ${route.allow}`,
            {
              headers: { Allow: route.allow },
            },
          );
        }
        operationId = op.operationId;
        const handler = operationHandlers[op.operationId];
        if (!handler) throw new Error(`no handler for operation ${op.operationId}`);
        const { parameters, body: bodyParser } =
          compiled.get(op.operationId) ?? (await compile(op));

        // 401, then 403: who is calling, and may they call this at all.
        let principal: Principal | undefined;
        if (op.security.some((r) => Object.keys(r).length > 0)) {
          // Decided before parsing: a malformed or misplaced token was presented all the same.
          tokenPresented = isBearerPresented(request.headers, request.query);
          const presented = readBearerToken(request.headers, request.query);
          if (presented.kind !== 'bearer') {
            throw new ApiProblem(
              'unauthenticated',
              'This operation needs an access token: send Authorization: Bearer <token>',
            );
          }
          principal = await authenticate(ctx, presented.token);
          const role = (op.operation as { 'x-apikit-role'?: string })['x-apikit-role'];
          if (role === 'ADMIN' && !principal.isAdmin) {
            throw new ApiProblem('forbidden', `${op.operationId} needs the ADMIN role`);
          }
        }
        if (!acceptsJson(request.headers.get('accept'))) {
          throw new ApiProblem(
            'not-acceptable',
            'This API answers application/json (errors application/problem+json); the Accept header admits neither',
          );
        }
        if (request.bodyTooLarge || (request.body && request.body.length > MAX_BODY_BYTES)) {
          throw new ApiProblem(
            'payload-too-large',
            `Request bodies are limited to ${MAX_BODY_BYTES / 1024} KiB`,
          );
        }
        const mediaType = bodyParser.checkMediaType(request.headers, request.body);
        const parsed = parameters.parse(match.params, request.query, request.headers);
        if (parsed.errors.length > 0) {
          throw new ApiProblem('validation-failed', describe(parsed.errors), {
            errors: parsed.errors,
          });
        }
        const input: OperationInput = {
          ctx,
          principal,
          path: parsed.path,
          query: parsed.query,
          body: undefined,
          apiPath: relative as string,
          rawQuery: request.query,
        };
        handler.requires?.(input);
        if (UNSAFE.has(method) && handler.current) {
          checkPreconditions(request.headers, handler.current(input));
        }
        input.body = bodyParser.parse(mediaType, request.body);

        const execute = async (): Promise<RememberedAnswer> => {
          try {
            const result = await handler.run(input);
            const rendered = renderResult(result, method, request.headers);
            return { status: rendered.status, headers: rendered.headers, body: rendered.body };
          } catch (error) {
            const problem = toApiProblem(error, requestId);
            if (problem.status === 500) options.onUnexpectedError?.(error, requestId);
            const rendered = renderProblem(problem, instance, requestId);
            return { status: rendered.status, headers: rendered.headers, body: rendered.body };
          }
        };
        const key = parsed.header['Idempotency-Key'] as string | undefined;
        const answer =
          key && principal
            ? await idempotency.run(
                `${principal.userId} ${method} ${instance} ${key}`,
                input.body,
                execute,
              )
            : await execute();
        ({ status, body } = answer);
        for (const [k, v] of Object.entries(answer.headers)) headers.set(k, v);
      }
    } catch (error) {
      const problem = toApiProblem(error, requestId);
      if (problem.status === 500) options.onUnexpectedError?.(error, requestId);
      const rendered = renderProblem(problem, instance, requestId);
      status = rendered.status;
      body = rendered.body;
      for (const [k, v] of Object.entries(rendered.headers)) headers.set(k, v);
    }
    return finish(status, body);

    function finish(status: number, body: string | null): ApiResponse {
      if (status === 401 && !headers.has('WWW-Authenticate'))
        headers.set('WWW-Authenticate', wwwAuthenticate(tokenPresented));
      if (relative !== undefined && !headers.has('Vary') && status !== 204)
        headers.set('Vary', 'Authorization, Accept');
      if (method !== 'OPTIONS') {
        for (const [k, v] of Object.entries(
          corsHeaders(corsOrigins, request.headers.get('origin')),
        )) {
          if (k === 'Vary') headers.append('Vary', v);
          else headers.set(k, v);
        }
      }
      headers.set('X-Request-Id', requestId);
      if (body !== null && status !== 204 && status !== 304)
        headers.set('Content-Length', String(utf8Length(body)));
      // HEAD: the headers GET would send, no body.
      return {
        status,
        headers,
        body: method === 'HEAD' || status === 204 || status === 304 ? null : body,
        ...(operationId ? { operationId } : {}),
      };
    }
  }

  return { handle };
}

function acceptPatch(op: SpecOperation): string {
  return Object.keys(op.requestBody?.content ?? {}).join(', ');
}
