import type { OpenAPIV3 } from 'openapi-types';
import { effectiveSchema, schemaType } from '../../spec/schema/effective-schema.js';
import { notInEnum, stringOfLength, type Violation } from './negative-values.js';
import { parameterSchema } from './parameter-values.js';
import type { GeneratorDeps } from './positive-bodies.js';
import { showValue } from './show-value.js';

/** Header values that break the schema (ASCII, as headers must be). */
export function headerViolations(p: OpenAPIV3.ParameterObject, deps: GeneratorDeps): Violation[] {
  const s = effectiveSchema(parameterSchema(p));
  const type = schemaType(s);
  if (type === 'integer' || type === 'number')
    return [{ value: 'abc', what: 'is abc: not a number' }];
  if (type !== 'string') return [];
  if (s.enum) {
    const bad = notInEnum(s);
    return bad
      ? [{ value: String(bad.value), what: `is ${showValue(bad.value)}: ${bad.what}` }]
      : [];
  }
  if (s.maxLength === undefined || s.maxLength >= 8000) return [];
  const long = stringOfLength(s, s.maxLength + 1, deps);
  // eslint-disable-next-line no-control-regex
  if (long === undefined || !/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(long)) return [];
  return [
    {
      value: long,
      what: `is longer than maxLength ${s.maxLength} (${s.maxLength + 1} characters)`,
    },
  ];
}
