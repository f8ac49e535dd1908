import type { SpecOperation } from '../../../spec/operations.js';
import { corsHeaders } from '../cors-policy.js';
import { routeOf, type Exchange } from '../exchange.js';
import type { PipelineEnv } from '../pipeline-env.js';
import type { StepAnswer } from '../pipeline-step.js';

/**
 * OPTIONS on any route: 204 with Allow (and Accept-Patch where PATCH is), a CORS preflight's
 * headers when it is one. Needs no token, so it answers before 401.
 *
 * @example
 * answerOptions(x, env)?.headers.Allow; // OPTIONS /api/v1/users: 'GET, HEAD, POST, OPTIONS'
 */
export function answerOptions(x: Exchange, env: PipelineEnv): StepAnswer | undefined {
  if (x.method !== 'OPTIONS') return undefined;
  const { route } = routeOf(x);
  x.operationId = route.operations.get('OPTIONS')?.operationId;
  const headers: Record<string, string> = { Allow: route.allow };
  const patch = route.operations.get('PATCH');
  if (patch) headers['Accept-Patch'] = acceptPatch(patch);
  const preflight = x.request.headers.has('access-control-request-method');
  const origin = x.request.headers.get('origin');
  Object.assign(
    headers,
    corsHeaders(env.corsOrigins, origin, preflight ? { allow: route.allow } : undefined),
  );
  return { status: 204, headers, body: null };
}

function acceptPatch(op: SpecOperation): string {
  return Object.keys(op.requestBody?.content ?? {}).join(', ');
}
