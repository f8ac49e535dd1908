import type { Check } from './check.js';
import { rateLimitHeaders } from './response/rate-limit-headers.js';
import { problemRequestId } from './response/problem-request-id.js';
import { serializedWrites } from './stateful/serialized-writes.js';
import { corsHeaders } from './probe/cors-preflight.js';
import { requestIdEcho } from './probe/request-id.js';
import { openRoutes, servedDocuments } from './probe/served-routes.js';

/**
 * The checks of what a service does around its operations, each judged only where the spec
 * declares it in `x-apikit-service` (decision 0092): served routes open to all, the contract
 * served as given, the request id (and its copy in problem bodies), the RateLimit headers' syntax, CORS lists, serialized
 * writes.
 */
export const serviceChecks: Check[] = [
  rateLimitHeaders,
  problemRequestId,
  openRoutes,
  servedDocuments,
  requestIdEcho,
  corsHeaders,
  serializedWrites,
];
