import type { Ajv, ValidateFunction } from 'ajv';
import type { OpenAPIV3 } from 'openapi-types';
import type { ProblemErrorEntry } from '../domain/api-problem.js';
import type { SpecOperation } from '../../spec/operations.js';
import { toErrorEntries } from './ajv-errors.js';

/** Plain decimal: no sign, exponent, fraction or leading zero (`+5`, `1e3`, `20.0`, `05` fail). */
const PLAIN_DECIMAL = /^(0|[1-9][0-9]*)$/;

interface CompiledParameter {
  parameter: OpenAPIV3.ParameterObject;
  schema: OpenAPIV3.SchemaObject;
  validate: ValidateFunction;
  pointer: string;
}

export interface ParsedParameters {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, unknown>;
  errors: ProblemErrorEntry[];
}

/**
 * Parses and validates an operation's path, query and header parameters against the spec,
 * reporting every violation at once. Values are converted by the parameter's schema (integer,
 * array with `style: form`), strictly: `?page=05` is an error, not 5.
 */
export class ParameterParser {
  private readonly compiled: CompiledParameter[];
  private readonly queryNames: Set<string>;

  constructor(operation: SpecOperation, ajv: Ajv) {
    this.compiled = operation.parameters
      .filter((p) => p.in === 'path' || p.in === 'query' || p.in === 'header')
      .map((parameter) => {
        const schema = (parameter.schema ?? {}) as OpenAPIV3.SchemaObject;
        return {
          parameter,
          schema,
          validate: ajv.compile(schema),
          pointer: `#/${parameter.in}/${parameter.name}`,
        };
      });
    this.queryNames = new Set(
      this.compiled.filter((c) => c.parameter.in === 'query').map((c) => c.parameter.name),
    );
  }

  parse(rawPath: Record<string, string>, rawQuery: string, headers: Headers): ParsedParameters {
    const result: ParsedParameters = { path: {}, query: {}, header: {}, errors: [] };
    const query = new URLSearchParams(rawQuery);
    for (const name of new Set(query.keys())) {
      if (!this.queryNames.has(name)) {
        result.errors.push({
          pointer: `#/query/${name}`,
          detail: 'is not a known query parameter',
        });
      }
    }
    for (const c of this.compiled) {
      const { name } = c.parameter;
      let raw: string[];
      if (c.parameter.in === 'path') {
        raw = rawPath[name] === undefined ? [] : [safeDecode(rawPath[name] as string)];
      } else if (c.parameter.in === 'query') {
        raw = query.getAll(name);
      } else {
        const value = headers.get(name);
        raw = value === null ? [] : [value];
      }
      if (raw.length === 0) {
        if (c.parameter.required) result.errors.push({ pointer: c.pointer, detail: 'is required' });
        else if (c.schema.default !== undefined)
          result[c.parameter.in as 'query'][name] = c.schema.default;
        continue;
      }
      const converted = this.convert(c, raw);
      if ('error' in converted) {
        result.errors.push({ pointer: c.pointer, detail: converted.error });
        continue;
      }
      if (!c.validate(converted.value)) {
        // The contract points at the parameter itself (`#/query/sort`), not inside its value.
        for (const entry of toErrorEntries(c.validate.errors, c.pointer)) {
          result.errors.push({ pointer: c.pointer, detail: entry.detail });
        }
        continue;
      }
      result[c.parameter.in as 'query'][name] = converted.value;
    }
    return result;
  }

  private convert(c: CompiledParameter, raw: string[]): { value: unknown } | { error: string } {
    if (c.schema.type === 'array') {
      const items = (c.schema.items ?? {}) as OpenAPIV3.SchemaObject;
      // A comma-separated array is accepted repeated too, as generated clients send it
      // (`expand=user&expand=items` as `expand=user,items`), and a value given twice counts
      // once (decision 0102; `x-apikit-validation.commaSeparatedArraysRepeatable`).
      const values =
        c.parameter.explode === false ? [...new Set(raw.flatMap((r) => r.split(',')))] : raw;
      const converted: unknown[] = [];
      for (const v of values) {
        const one = convertScalar(items, v);
        if ('error' in one) return one;
        converted.push(one.value);
      }
      return { value: converted };
    }
    if (raw.length > 1) return { error: 'must be given at most once' };
    return convertScalar(c.schema, raw[0] as string);
  }
}

function convertScalar(
  schema: OpenAPIV3.SchemaObject,
  raw: string,
): { value: unknown } | { error: string } {
  if (schema.type === 'integer') {
    if (!PLAIN_DECIMAL.test(raw)) return { error: 'must be a plain decimal integer' };
    const value = Number(raw);
    // Beyond 2^53 the number would silently round; report it as out of range instead.
    return Number.isSafeInteger(value)
      ? { value }
      : { error: `must be <= ${Number.MAX_SAFE_INTEGER}` };
  }
  if (schema.type === 'boolean') {
    if (raw === 'true' || raw === 'false') return { value: raw === 'true' };
    return { error: 'must be true or false' };
  }
  return { value: raw };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a malformed escape stays as sent and fails validation as text
  }
}
