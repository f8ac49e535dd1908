import type { SpecOperation } from '../../spec/operations.js';
import { jsonRequestBody } from '../generate/json-request-body.js';
import type { PlannedRequest } from '../http/target-client.js';
import type { FuzzCase } from './fuzz-operation.js';
import { pathText } from './fuzz-parameters.js';
import { encodeComponent } from './fuzz-strings.js';
import { mayUse, type FuzzParams } from './fuzz-fixtures.js';

/**
 * The request of a fuzz case at the run's path parameter values. A fixture choice for a
 * parameter that has no usable value (no resource of the run behind an unsafe operation)
 * becomes `0`, which names no resource anywhere. Case headers override the defaults
 * (Accept, Content-Type, Authorization).
 */
export function fuzzRequest(
  op: SpecOperation,
  testCase: FuzzCase,
  params: FuzzParams,
  authorization: string | undefined,
): PlannedRequest {
  const values = pathValues(op, testCase, params);
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    encodeComponent(values[name] ?? '0'),
  );
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (authorization) headers['Authorization'] = authorization;
  if (testCase.body !== undefined)
    headers['Content-Type'] = jsonRequestBody(op)?.mediaType ?? 'application/json';
  Object.assign(headers, testCase.headers);
  return {
    method: op.method.toUpperCase(),
    path: testCase.query ? `${path}?${testCase.query}` : path,
    headers,
    ...(testCase.body !== undefined ? { body: testCase.body } : {}),
  };
}

/** The path parameter values of a case as text (before percent-encoding). */
export function pathValues(
  op: SpecOperation,
  testCase: FuzzCase,
  params: FuzzParams,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [, name] of op.path.matchAll(/\{([^}]+)\}/g)) {
    if (name === undefined) continue;
    const choice = testCase.path[name] ?? { kind: 'fixture', variant: 'exact' };
    out[name] =
      choice.kind === 'fixture' && !mayUse(op, params, name)
        ? '0'
        : pathText(choice, params.values[name]);
  }
  return out;
}
