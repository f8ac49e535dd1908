import type { SpecOperation } from '../../spec/operations.js';
import type { OperationCall } from '../http/build-request.js';
import type { NegativeCase } from './case-generator.js';
import { headerViolations } from './header-violations.js';
import { parametersIn, validParameterValue } from './parameter-values.js';
import { pathViolations } from './path-violations.js';
import type { GeneratorDeps } from './positive-bodies.js';
import { queryViolations } from './query-violations.js';
import { serializeQuery } from './serialize-query.js';

/** Headers a description may declare but that OpenAPI says are ignored as parameters. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** A query parameter name the runner sends to provoke "unknown query parameter". */
export const UNKNOWN_QUERY_PARAMETER = 'unknownParam';

/**
 * Negative parameter cases of an operation, each with every other part valid (the other
 * path parameters, the required query parameters and headers, a valid body when one is
 * required, so that nothing else can answer first):
 * - path: for integers `0`/below the minimum, `-1`, `abc`, `1.5`, above the maximum (2^53
 *   for ids up to 2^53-1); for strings an unknown enum value, a bad pattern, too long;
 * - query (sent verbatim as `rawQuery`): for integers below the minimum, above the maximum,
 *   an exponent, a sign, a leading zero, a fraction and `abc`; unknown enum values, bad
 *   patterns and lengths; array items that break the item rules, too many items, repeated
 *   items; and one unknown parameter;
 * - headers: too long, not in the enum, not an integer.
 */
export function negativeParameters(
  op: SpecOperation,
  deps: GeneratorDeps,
  validBody: (() => unknown) | undefined,
): NegativeCase[] {
  const pathParams = parametersIn(op, 'path');
  const queryParams = parametersIn(op, 'query');
  const headerParams = parametersIn(op, 'header').filter(
    (p) => !IGNORED_HEADERS.has(p.name.toLowerCase()),
  );
  const pathValues: Record<string, unknown> = {};
  for (const p of pathParams) {
    const value = validParameterValue(p, deps);
    if (value !== undefined) pathValues[p.name] = value;
  }
  const requiredHeaders: Record<string, string> = {};
  for (const p of headerParams.filter((h) => h.required)) {
    const value = validParameterValue(p, deps);
    if (value !== undefined) requiredHeaders[p.name] = String(value);
  }
  const requiredQuery = new Map<string, unknown>();
  for (const p of queryParams.filter((q) => q.required)) {
    const value = validParameterValue(p, deps);
    if (value !== undefined) requiredQuery.set(p.name, value);
  }
  const call = (extra: OperationCall): OperationCall => {
    const c: OperationCall = {};
    if (pathParams.length > 0) c.path = { ...pathValues, ...extra.path };
    const headers = { ...requiredHeaders, ...extra.headers };
    if (Object.keys(headers).length > 0) c.headers = headers;
    if (extra.rawQuery !== undefined) c.rawQuery = extra.rawQuery;
    const body = validBody?.();
    if (body !== undefined) c.body = body;
    return c;
  };
  const rawQuery = (except: string, piece: string) =>
    [
      ...[...requiredQuery]
        .filter(([name]) => name !== except)
        .map(([name, value]) =>
          serializeQuery(
            queryParams.find((q) => q.name === name),
            name,
            value,
          ),
        ),
      piece,
    ].join('&');

  const cases: NegativeCase[] = [];
  for (const p of pathParams) {
    for (const v of pathViolations(p, deps)) {
      cases.push({
        description: `path parameter ${p.name} ${v.what}`,
        pointer: `#/path/${p.name}`,
        call: call({ path: { [p.name]: v.value } }),
      });
    }
  }
  for (const p of queryParams) {
    for (const v of queryViolations(p, deps)) {
      cases.push({
        description: `query parameter ${p.name} ${v.what}`,
        pointer: `#/query/${p.name}`,
        call: call({ rawQuery: rawQuery(p.name, v.value as string) }),
        ...(v.convention ? { convention: v.convention } : {}),
      });
    }
  }
  // Also where no path or query parameter and no body could be wrong, yet a 400 is documented:
  // an unknown query parameter is then the likeliest request to draw that 400.
  const nothingElse = pathParams.length === 0 && !op.requestBody && '400' in op.responses;
  if (queryParams.length > 0 || nothingElse) {
    let unknown = UNKNOWN_QUERY_PARAMETER;
    for (let i = 2; op.parameters.some((p) => p.in === 'query' && p.name === unknown); i++) {
      unknown = `${UNKNOWN_QUERY_PARAMETER}${i}`;
    }
    cases.push({
      convention: 'unknown-query-parameters',
      description: `unknown query parameter ${unknown}`,
      pointer: `#/query/${unknown}`,
      call: call({ rawQuery: rawQuery('', `${unknown}=1`) }),
    });
  }
  for (const p of headerParams) {
    for (const v of headerViolations(p, deps)) {
      cases.push({
        description: `header ${p.name} ${v.what}`,
        pointer: `#/header/${p.name}`,
        call: call({ headers: { [p.name]: v.value as string } }),
      });
    }
  }
  return cases;
}
