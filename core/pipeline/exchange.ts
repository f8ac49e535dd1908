import type { SpecOperation } from '../../spec/operations.js';
import type { Principal } from '../domain/ports.js';
import { API_BASE, apiRelativePath } from './api-paths.js';
import type { ApiRequest } from './api-types.js';
import type { OperationHandler, OperationInput } from './handlers/operation-handler.js';
import type { OperationParsers } from './parsers-per-operation.js';
import { requestIdOf } from './request-id.js';
import type { RouteMatch } from './route-table.js';

/** The operation a request was routed to, with what answers and validates it. */
export interface SelectedOperation {
  operation: SpecOperation;
  handler: OperationHandler;
  parsers: OperationParsers;
}

/**
 * One request on its way through the steps: what it is, and what the steps have learned so
 * far. Each step reads what earlier steps set and adds its own finding, so a step never
 * recomputes another's work (and the order of the steps is the order of the findings).
 */
export interface Exchange {
  readonly request: ApiRequest;
  readonly requestId: string;
  /** Upper-case method. */
  readonly method: string;
  /** The path below the API base (`/users/7`); undefined outside it (`/healthz`). */
  readonly relative: string | undefined;
  /** The problem's `instance`: the request path, under the canonical base when inside it. */
  readonly instance: string;
  /** Whether a bearer token was presented at all; a 401's WWW-Authenticate says so. */
  tokenPresented: boolean;
  /** The spec operation that answers, once known (reported with the response). */
  operationId?: string;
  route?: RouteMatch;
  selected?: SelectedOperation;
  principal?: Principal;
  /** The body's media type as accepted by the 415 check (undefined without a body). */
  mediaType?: string;
  input?: OperationInput;
  idempotencyKey?: string;
}

/**
 * The exchange of a request before any step ran.
 *
 * @example
 * createExchange({ method: 'get', path: '/api/users', query: '', headers, body: null }).instance; // '/api/v1/users'
 */
export function createExchange(request: ApiRequest): Exchange {
  const relative = apiRelativePath(request.path);
  return {
    request,
    requestId: requestIdOf(request.headers.get('x-request-id')),
    method: request.method.toUpperCase(),
    relative,
    instance: relative === undefined ? request.path : API_BASE + relative,
    tokenPresented: false,
    // Every finding there from the start: one object shape, however far a request gets.
    operationId: undefined,
    route: undefined,
    selected: undefined,
    principal: undefined,
    mediaType: undefined,
    input: undefined,
    idempotencyKey: undefined,
  };
}

/** The route `matchRoute` found; a step asking before it ran is a wiring bug (a 500). */
export function routeOf(x: Exchange): RouteMatch {
  if (!x.route) throw new Error('pipeline step order: no route matched yet');
  return x.route;
}

/** The operation `selectOperation` chose; asked before it ran is a wiring bug (a 500). */
export function selectedOf(x: Exchange): SelectedOperation {
  if (!x.selected) throw new Error('pipeline step order: no operation selected yet');
  return x.selected;
}

/** The handler's input `parseParameters` built; asked before it ran is a wiring bug (a 500). */
export function inputOf(x: Exchange): OperationInput {
  if (!x.input) throw new Error('pipeline step order: parameters not parsed yet');
  return x.input;
}
