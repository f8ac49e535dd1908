import type { OpenAPIV3 } from 'openapi-types';
import { effectiveSchema, schemaType, type Schema } from '../../spec/schema/effective-schema.js';
import { notInEnum, numberViolations, type Violation } from './negative-values.js';
import { parameterSchema, validParameterValue } from './parameter-values.js';
import type { GeneratorDeps } from './positive-bodies.js';
import { queryArrayViolations } from './query-array-violations.js';
import { showValue } from './show-value.js';
import { stringViolations } from './string-violations.js';

/** Raw `name=value` pieces (already encoded) that break a query parameter. */
export function queryViolations(p: OpenAPIV3.ParameterObject, deps: GeneratorDeps): Violation[] {
  const s = effectiveSchema(parameterSchema(p));
  const type = schemaType(s);
  const piece = (value: string) => `${encodeURIComponent(p.name)}=${encodeURIComponent(value)}`;
  const out: Violation[] = [];
  if (type === 'integer' || type === 'number') {
    const integer = type === 'integer';
    if (s.enum) {
      const bad = notInEnum(s);
      if (bad) out.push({ value: piece(String(bad.value)), what: `is ${bad.value}: ${bad.what}` });
    }
    const valid = validParameterValue(p, deps);
    for (const v of numberViolations(s, integer, valid)) {
      if (v.what.startsWith('not an integer')) continue; // the fraction notation below says it
      out.push({ value: piece(String(v.value)), what: `is ${v.what}` });
    }
    if (integer) {
      const n = plainInRange(s, valid, deps);
      if (n !== undefined) {
        const exponent = n > 0 && n % 10 === 0 ? `${n / 10}e1` : `${n}e0`;
        for (const [raw, why] of [
          [exponent, 'an exponent'],
          [`+${n}`, 'a sign'],
          [`0${n}`, 'a leading zero'],
          [`${n}.0`, 'a fraction'],
        ] as const) {
          out.push({
            value: piece(raw),
            what: `is ${raw}: ${why} is not a plain decimal integer`,
            convention: 'plain-decimal-integers',
          });
        }
      }
    }
    out.push({ value: piece('abc'), what: 'is abc: not a number' });
    return out;
  }
  if (type === 'boolean') return [{ value: piece('yes'), what: 'is yes: not true or false' }];
  if (type === 'string') {
    return stringViolations(s, deps).map((v) => ({
      value: piece(v.value as string),
      what: `is ${showValue(v.value)}: ${v.what}`,
    }));
  }
  if (type === 'array') return queryArrayViolations(p, s, deps);
  return out;
}

/** A valid integer of 1 to 4 digits for the plain-decimal cases (so only the notation is wrong). */
function plainInRange(s: Schema, valid: unknown, deps: GeneratorDeps): number | undefined {
  const candidates = [valid, 1, 2, 10, 20, 100, 5, 50];
  for (const c of candidates) {
    if (typeof c === 'number' && Number.isInteger(c) && c >= 1 && c <= 9999) {
      if (deps.validator.check(s, c) !== false) return c;
    }
  }
  return undefined;
}
