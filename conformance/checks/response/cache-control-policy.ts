import type { OpenAPIV3 } from 'openapi-types';
import { declaredCacheControl } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckFailure, ResponseCheck } from '../check.js';
import { policyBreak } from '../support/cache-directives.js';

const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** The policies an answer may carry (any one of them), and whether it must carry one. */
interface Policies {
  values: string[];
  required: boolean;
  /** Where the policies come from, said in a failure. */
  source: string;
}

/**
 * `cache_control_policy` (a response check): the Cache-Control of every answer holds the
 * policy the description gives its kind, judged by directives (RFC 9111), not by spelling.
 * The policy is the `enum` of the Cache-Control header its response declares (resources,
 * catalogs, `/auth`, problems, 304s), else, for a 2xx answer to a write whose response
 * declares none, `x-apikit-http.cacheControl.writes`. Every directive of the policy is there,
 * and nothing beside them contradicts one (`public` or `max-age=60` where `private, no-cache`
 * is due). Found by the mutation harness (issue 32): the header's value was judged only where
 * a response declared it, so a write's answer could carry any policy.
 */
export const cacheControlPolicy: ResponseCheck = {
  kind: 'response',
  name: 'cache_control_policy',
  description:
    "Every answer's Cache-Control holds the policy of its kind: its response's declared values, or x-apikit-http.cacheControl.writes for a write",
  check(exchange, op, ctx): CheckFailure[] {
    const policies = policiesOf(exchange, op, ctx);
    if (!policies) return [];
    const value = exchange.headers.get('cache-control');
    if (value === null)
      return policies.required
        ? [
            {
              message: `a ${exchange.response.status} answer to ${exchange.request.method} has no Cache-Control`,
              expected: `Cache-Control: ${policies.values.join(' or ')} (${policies.source})`,
              actual: '(absent)',
            },
          ]
        : [];
    const breaks = policies.values.map((policy) => policyBreak(value, policy));
    if (breaks.includes(undefined)) return [];
    return [
      {
        message: `the Cache-Control of a ${exchange.response.status} answer to ${exchange.request.method} does not hold its policy: ${breaks[0]}`,
        expected: `Cache-Control: ${policies.values.join(' or ')} (${policies.source})`,
        actual: `Cache-Control: ${value}`,
      },
    ];
  },
};

/**
 * The policies of this answer, or undefined when the description gives none (or the request
 * was not the operation's own method: a probe's 405 is no answer of the operation).
 */
function policiesOf(exchange: Exchange, op: SpecOperation, ctx: RunContext): Policies | undefined {
  const method = exchange.request.method;
  if (method !== op.method.toUpperCase() && !(method === 'HEAD' && op.method === 'get'))
    return undefined;
  const status = exchange.response.status;
  const documented = ctx.validator.documented(op.operationId, status);
  if (!documented) return undefined;
  const name = Object.keys(documented.headers ?? {}).find(
    (h) => h.toLowerCase() === 'cache-control',
  );
  if (name) {
    const header = documented.headers![name] as OpenAPIV3.HeaderObject;
    const values = enumOf(header);
    return values.length
      ? { values, required: header.required === true, source: `declared for ${status}` }
      : undefined;
  }
  const writes = declaredCacheControl(ctx.spec).writes;
  if (!WRITES.includes(method) || status < 200 || status > 299 || writes.length === 0)
    return undefined;
  return { values: writes, required: true, source: 'x-apikit-http.cacheControl.writes' };
}

/** The string values a header's schema allows, when it lists them. */
function enumOf(header: OpenAPIV3.HeaderObject): string[] {
  const schema = header.schema as OpenAPIV3.SchemaObject | undefined;
  return (schema?.enum ?? []).filter((v): v is string => typeof v === 'string');
}
