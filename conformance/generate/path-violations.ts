import type { OpenAPIV3 } from 'openapi-types';
import { effectiveSchema, schemaType, type Schema } from '../../spec/schema/effective-schema.js';
import { numberViolations, type Violation } from './negative-values.js';
import { parameterSchema } from './parameter-values.js';
import type { GeneratorDeps } from './positive-bodies.js';
import { showValue } from './show-value.js';
import { stringViolations } from './string-violations.js';

/** Path values (strings, percent-encoded by `buildRequest`) that break the schema. */
export function pathViolations(p: OpenAPIV3.ParameterObject, deps: GeneratorDeps): Violation[] {
  const s = effectiveSchema(parameterSchema(p));
  const type = schemaType(s);
  if (type === 'integer' || type === 'number') {
    const integer = type === 'integer';
    const numeric = numberViolations(s, integer, undefined).filter(
      (v) => !v.what.startsWith('not an integer') && !v.what.startsWith('not a multiple'),
    );
    const below = numeric.filter((v) => v.what.includes('minimum'));
    const rest = numeric.filter((v) => !v.what.includes('minimum'));
    const out: Violation[] = below.map((v) => ({ value: String(v.value), what: `is ${v.what}` }));
    if (isInvalidNumber(s, -1, integer, deps)) out.push({ value: '-1', what: 'is negative (-1)' });
    out.push({ value: 'abc', what: 'is not a number ("abc")' });
    if (integer) out.push({ value: '1.5', what: 'is not an integer (1.5)' });
    out.push(...rest.map((v) => ({ value: String(v.value), what: `is ${v.what}` })));
    return dedupe(out);
  }
  if (type === 'string') {
    return stringViolations(s, deps).map((v) => ({
      value: v.value,
      what: `is ${showValue(v.value)}: ${v.what}`,
    }));
  }
  return [];
}

function isInvalidNumber(s: Schema, n: number, integer: boolean, deps: GeneratorDeps): boolean {
  if (integer && !Number.isInteger(n)) return true;
  return deps.validator.check(s, n) === false;
}

function dedupe(violations: Violation[]): Violation[] {
  const seen = new Set<string>();
  return violations.filter((v) => {
    const key = String(v.value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
