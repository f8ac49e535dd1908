import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../spec/operations.js';
import { asSchema, type Schema } from '../../spec/schema/effective-schema.js';
import type { GeneratorDeps } from './positive-bodies.js';
import { GenerationError, generateValue } from '../../spec/schema/schema-values.js';

/** The parameters of an operation in one location that carry a schema. */
export function parametersIn(
  op: SpecOperation,
  location: 'query' | 'path' | 'header' | 'cookie',
): OpenAPIV3.ParameterObject[] {
  return op.parameters.filter((p) => p.in === location && p.schema !== undefined);
}

/** A parameter's schema. */
export function parameterSchema(p: OpenAPIV3.ParameterObject): Schema {
  return asSchema(p.schema);
}

/** The examples of a parameter: its `example`, its `examples`, its schema's example. */
export function parameterExamples(p: OpenAPIV3.ParameterObject): unknown[] {
  const found: unknown[] = [];
  if (p.example !== undefined) found.push(p.example);
  for (const example of Object.values(p.examples ?? {})) {
    const value = (example as OpenAPIV3.ExampleObject).value;
    if (value !== undefined) found.push(value);
  }
  const schema = parameterSchema(p);
  if (schema.example !== undefined) found.push(schema.example);
  return found;
}

/** Whether a query array is sent comma-separated (`form` without explode). */
export function isCommaSeparated(p: OpenAPIV3.ParameterObject): boolean {
  const style = p.style ?? (p.in === 'query' || p.in === 'cookie' ? 'form' : 'simple');
  const explode = p.explode ?? style === 'form';
  return !explode;
}

/**
 * Whether a value is valid for a parameter as it will travel: the schema accepts it and an
 * array sent comma-separated has no item containing a comma.
 */
export function isValidParameterValue(
  p: OpenAPIV3.ParameterObject,
  value: unknown,
  deps: GeneratorDeps,
): boolean {
  if (value === undefined || value === null) return false;
  if (deps.validator.check(parameterSchema(p), value) === false) return false;
  if (Array.isArray(value) && isCommaSeparated(p)) {
    return value.every((v) => !String(v).includes(','));
  }
  return true;
}

/**
 * A valid value for a parameter: its first valid example, else its default, else a generated
 * one; `undefined` if none can be had.
 */
export function validParameterValue(p: OpenAPIV3.ParameterObject, deps: GeneratorDeps): unknown {
  const schema = parameterSchema(p);
  for (const candidate of [...parameterExamples(p), schema.default]) {
    if (isValidParameterValue(p, candidate, deps)) return structuredClone(candidate);
  }
  for (let i = 0; i < 5; i++) {
    try {
      const value = generateValue(
        schema,
        deps.random.fork(`${p.in}:${p.name}:${i}`),
        'full',
        deps.validator,
      );
      if (isValidParameterValue(p, value, deps)) return value;
    } catch (error) {
      if (!(error instanceof GenerationError)) throw error;
    }
  }
  return undefined;
}
