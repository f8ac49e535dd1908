import type { OpenApiDocument } from '../../spec/load-spec.js';
import type { DomainContext } from '../domain/ports.js';
import type { CorsOrigins } from './cors-policy.js';
import type { OpenDocuments } from './open-routes.js';

/** What `createApi` is built from: the domain, the contract and the few policies of a face. */
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
  /** Told why a request got 503 (the store could not be read or written), for logging. */
  onUnavailable?: (error: unknown, requestId: string) => void;
}
