import type { PipelineStep } from './pipeline-step.js';
import { answerOptions } from './steps/answer-options.js';
import { authenticateCaller } from './steps/authenticate-caller.js';
import { authorizeRole } from './steps/authorize-role.js';
import { authorizeTarget } from './steps/authorize-target.js';
import { checkAccept } from './steps/check-accept.js';
import { checkBodySize } from './steps/check-body-size.js';
import { checkMediaType } from './steps/check-media-type.js';
import { judgePreconditions } from './steps/judge-preconditions.js';
import { matchRoute } from './steps/match-route.js';
import { parseBody } from './steps/parse-body.js';
import { parseParameters } from './steps/parse-parameters.js';
import { requireResource } from './steps/require-resource.js';
import { runOperation } from './steps/run-operation.js';
import { selectOperation } from './steps/select-operation.js';
import { serveOpenRoutes } from './steps/serve-open-routes.js';

/**
 * The contract's order of checks, as code: `createApi` runs these in this order and the first
 * that answers or throws decides the response (test/integration/problem-precedence-suite.ts holds
 * every pair of neighbours to it). A new check goes where the contract puts it, here.
 */
export const pipelineSteps: readonly PipelineStep[] = [
  serveOpenRoutes, // 404 outside the API base; /healthz, /openapi.* answer (their own 405)
  matchRoute, // 404 unknown route
  answerOptions, // OPTIONS: 204 with Allow, CORS preflight
  selectOperation, // 501 unknown method, 405 method not on the route
  authenticateCaller, // 401 (and the 400 of a token sent twice)
  authorizeRole, // 403
  checkAccept, // 406
  checkBodySize, // 413
  checkMediaType, // 415
  parseParameters, // 400 path, query, header
  requireResource, // 404 resource
  authorizeTarget, // 403 of who may act on that resource (before 412: RFC 9110 13.2.1)
  judgePreconditions, // 412
  parseBody, // 400 body
  runOperation, // the domain: 409/422 and the result; Idempotency-Key replays
];
