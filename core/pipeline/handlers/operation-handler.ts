import type { DomainContext, Principal } from '../../domain/ports.js';
import type { Precondition } from '../../domain/precondition.js';
import type { Resource } from '../../domain/resource.js';

/**
 * The request as the pipeline hands it to a handler, parsed and validated, before it is known
 * which operation it is for. Handlers see it typed per operation (`OperationInputOf`).
 */
export interface OperationInput {
  ctx: DomainContext;
  /** The caller; set on every secured operation (open ones get undefined). */
  principal: Principal | undefined;
  /** Path, query and header parameters, converted and validated against the spec. */
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  /** The validated body (undefined when the operation takes none or none was sent). */
  body: unknown;
  /**
   * The request's If-Match / If-None-Match, for the write to judge again inside its
   * transaction (a no-op when none was sent, or on a safe method).
   */
  precondition: Precondition;
  /** The request path below the API base (`/users`) and its raw query, for Link headers. */
  apiPath: string;
  rawQuery: string;
}

/** What a handler answers; the pipeline turns it into headers (ETag, Location, ...) and bytes. */
export interface OperationResult {
  status: number;
  /** JSON-serialized as the response body; absent for 204. */
  body?: unknown;
  /** Emit an ETag of the body: strong for one representation, weak for lists and pages. */
  etag?: 'strong' | 'weak';
  lastModified?: string;
  /** Path of the created or described resource below the API base, e.g. `/users/42`. */
  location?: string;
  /** Overrides the default `private, no-cache`. */
  cacheControl?: string;
  headers?: Record<string, string>;
}

/**
 * One operation of the spec, bound to the domain. `current` (unsafe methods on an existing
 * resource) lets the pipeline judge 404 and If-Match/If-None-Match *before* the body is
 * validated, as the contract's check order demands; it returns undefined where absence is
 * not an error (PUT creating at a client-known id).
 *
 * Method syntax on purpose: its parameters are bivariant, so the table typed per operation
 * (`HandlerTable`) can also be looked up by a runtime operationId (`handlerFor`).
 */
export interface OperationHandler<Input = OperationInput> {
  /**
   * Throws 404 when a resource the operation acts on is absent, so that 404 is judged before
   * the body (contract check order) on operations without a representation to precondition.
   */
  requires?(input: Input): Promise<void>;
  /**
   * Throws 403 when the caller may not act on this resource (a USER changing a user who holds
   * ADMIN), judged before preconditions and the body: a 412 must not tell a caller who may not
   * act at all that their tag is stale (RFC 9110 13.2.1).
   */
  authorizes?(input: Input): Promise<void>;
  current?(input: Input): Promise<Resource<unknown> | undefined>;
  run(input: Input): OperationResult | Promise<OperationResult>;
  /**
   * For an operation taking an Idempotency-Key: what `run` answers, given what its one write
   * transaction returned. The pipeline renders it inside that transaction, so that the key's
   * answer commits with the write (decision 0109); without it the answer is stored after.
   */
  answers?(written: unknown): OperationResult;
}

/** The principal of a secured operation; its absence is a wiring bug, not a client error. */
export function caller(input: { principal: Principal | undefined }): Principal {
  if (!input.principal) throw new Error(`secured operation reached without a principal`);
  return input.principal;
}

/**
 * A query parameter the spec gives a default: the pipeline fills it in when absent (the
 * generated types cannot say so), so its absence is a wiring bug, not a client error.
 */
export function filled<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`query parameter ${name} reached without its default`);
  return value;
}

/** A single representation read: strong ETag and Last-Modified. */
export async function representation(
  read: Resource<unknown> | Promise<Resource<unknown>>,
  cacheControl?: string,
): Promise<OperationResult> {
  const resource = await read;
  return {
    status: 200,
    body: resource.body,
    etag: 'strong',
    lastModified: resource.lastModified,
    ...(cacheControl ? { cacheControl } : {}),
  };
}

/** Cache policy of the fixed catalogs (roles, categories). */
export const CATALOG_CACHE = 'private, max-age=3600';
