import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../spec/operations.js';
import type { OperationCall } from '../http/build-request.js';
import type { NegativeCase } from './case-generator.js';
import {
  effectiveSchema,
  schemaType,
  stableJson,
  type Schema,
} from '../../spec/schema/effective-schema.js';
import {
  badFormatString,
  MAX_NEGATIVE_LENGTH,
  notInEnum,
  numberViolations,
  stringOfLength,
  type Violation,
} from './negative-values.js';
import {
  isCommaSeparated,
  parameterSchema,
  parametersIn,
  validParameterValue,
} from './parameter-values.js';
import { patternMismatch } from '../../spec/schema/pattern-strings.js';
import type { GeneratorDeps } from './positive-bodies.js';
import { GenerationError, generateValue } from '../../spec/schema/schema-values.js';

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
          serialize(
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
  if (queryParams.length > 0) {
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

/** Path values (strings, percent-encoded by `buildRequest`) that break the schema. */
function pathViolations(p: OpenAPIV3.ParameterObject, deps: GeneratorDeps): Violation[] {
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
      what: `is ${show(v.value)}: ${v.what}`,
    }));
  }
  return [];
}

function isInvalidNumber(s: Schema, n: number, integer: boolean, deps: GeneratorDeps): boolean {
  if (integer && !Number.isInteger(n)) return true;
  return deps.validator.check(s, n) === false;
}

/** Raw `name=value` pieces (already encoded) that break a query parameter. */
function queryViolations(p: OpenAPIV3.ParameterObject, deps: GeneratorDeps): Violation[] {
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
      what: `is ${show(v.value)}: ${v.what}`,
    }));
  }
  if (type === 'array') return arrayViolations(p, s, deps);
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

/**
 * Strings that break a string schema (not in the enum, too short or long, bad format or
 * pattern); `what` says why, without the value.
 */
function stringViolations(s: Schema, deps: GeneratorDeps): Violation[] {
  const out: Violation[] = [];
  if (s.enum) {
    const bad = notInEnum(s);
    if (bad) out.push({ value: String(bad.value), what: bad.what });
    return out;
  }
  const min = s.minLength ?? 0;
  if (min > 1) {
    const short = stringOfLength(s, min - 1, deps);
    if (short !== undefined) out.push({ value: short, what: `shorter than minLength ${min}` });
  }
  if (s.maxLength !== undefined && s.maxLength < MAX_NEGATIVE_LENGTH) {
    const long = stringOfLength(s, s.maxLength + 1, deps);
    if (long !== undefined) {
      out.push({
        value: long,
        what: `longer than maxLength ${s.maxLength} (${s.maxLength + 1} characters)`,
      });
    }
  }
  const format = badFormatString(s);
  if (format) out.push({ value: format.value, what: format.what });
  if (s.pattern !== undefined) {
    const bad = patternMismatch(s.pattern, s);
    if (bad !== undefined) out.push({ value: bad, what: `does not match ${s.pattern}` });
  }
  return out;
}

/** A value for a description: quoted, long ones shortened. */
function show(value: unknown): string {
  const text = String(value);
  return text.length > 40 ? `${JSON.stringify(text.slice(0, 16))}…` : JSON.stringify(text);
}

function arrayViolations(
  p: OpenAPIV3.ParameterObject,
  s: Schema,
  deps: GeneratorDeps,
): Violation[] {
  const items = effectiveSchema(s.items);
  const comma = isCommaSeparated(p);
  const serializeItems = (values: unknown[]) => serialize(p, p.name, values);
  const valid = (validParameterValue(p, deps) as unknown[] | undefined) ?? [];
  const filler = valid.length > 0 ? valid : [];
  const minItems = s.minItems ?? 0;
  const withBad = (bad: unknown) => [bad, ...filler.slice(0, Math.max(0, minItems - 1))];
  const out: Violation[] = [];
  const itemType = schemaType(items);
  const badItems: Violation[] = [];
  if (itemType === 'string' || items.enum) {
    for (const v of stringViolations(items, deps)) {
      if (!(comma && String(v.value).includes(','))) badItems.push(v);
    }
  } else if (itemType === 'integer' || itemType === 'number') {
    badItems.push({ value: 'abc', what: 'not a number' });
  }
  for (const v of badItems) {
    out.push({
      value: serializeItems(withBad(v.value)),
      what: `has the item ${show(v.value)}: ${v.what}`,
    });
  }
  if (s.maxItems !== undefined && s.maxItems < 100) {
    const longer = distinctItems(p, s, s.maxItems + 1, deps);
    if (longer) {
      out.push({
        value: serializeItems(longer),
        what: `has ${longer.length} items, more than maxItems ${s.maxItems}`,
      });
    }
  }
  if (s.uniqueItems && (s.maxItems ?? Infinity) >= 2 && filler.length > 0) {
    out.push({
      value: serializeItems([filler[0], filler[0]]),
      what: `repeats ${JSON.stringify(filler[0])} (uniqueItems)`,
    });
  }
  return out;
}

/** `count` valid items, distinct when the array wants unique items; `undefined` if impossible. */
function distinctItems(
  p: OpenAPIV3.ParameterObject,
  s: Schema,
  count: number,
  deps: GeneratorDeps,
): unknown[] | undefined {
  const items = effectiveSchema(s.items);
  const comma = isCommaSeparated(p);
  const found = new Map<string, unknown>();
  if (items.enum) for (const v of items.enum) if (v !== null) found.set(stableJson(v), v);
  for (let i = 0; found.size < count && !items.enum && i < count * 4; i++) {
    try {
      const v = generateValue(
        items,
        deps.random.fork(`items:${p.name}:${i}`),
        'random',
        deps.validator,
      );
      if (!(comma && String(v).includes(','))) found.set(stableJson(v), v);
    } catch (error) {
      if (error instanceof GenerationError) break;
      throw error;
    }
  }
  const values = [...found.values()];
  if (values.length === 0) return undefined;
  if (values.length >= count) return values.slice(0, count);
  if (s.uniqueItems) return undefined;
  return Array.from({ length: count }, (_, i) => values[i % values.length]);
}

/** Header values that break the schema (ASCII, as headers must be). */
function headerViolations(p: OpenAPIV3.ParameterObject, deps: GeneratorDeps): Violation[] {
  const s = effectiveSchema(parameterSchema(p));
  const type = schemaType(s);
  if (type === 'integer' || type === 'number')
    return [{ value: 'abc', what: 'is abc: not a number' }];
  if (type !== 'string') return [];
  if (s.enum) {
    const bad = notInEnum(s);
    return bad ? [{ value: String(bad.value), what: `is ${show(bad.value)}: ${bad.what}` }] : [];
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

/** `name=value` as `buildRequest` would send it (arrays per style and explode). */
function serialize(p: OpenAPIV3.ParameterObject | undefined, name: string, value: unknown): string {
  const key = encodeURIComponent(name);
  if (!Array.isArray(value)) return `${key}=${encodeURIComponent(String(value))}`;
  if (p && isCommaSeparated(p)) {
    return `${key}=${value.map((v) => encodeURIComponent(String(v))).join(',')}`;
  }
  return value.map((v) => `${key}=${encodeURIComponent(String(v))}`).join('&');
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
