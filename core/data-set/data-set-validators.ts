import type { ValidateFunction } from 'ajv';
import type { OpenAPIV3 } from 'openapi-types';
import { createAjv } from '../../spec/create-ajv.js';
import type { OpenApiDocument } from '../../spec/load-spec.js';

/** The contract's schemas a data set's records are checked with. */
export interface DataSetValidators {
  user: ValidateFunction;
  order: ValidateFunction;
  item: ValidateFunction;
  roles: ValidateFunction;
  password: ValidateFunction;
  maxItemsPerOrder: number;
}

// Compiled once per spec object: the server and the mocks check with the contract they serve.
const compiled = new WeakMap<OpenApiDocument, DataSetValidators>();

/** The validators of `spec`, compiled on first use. */
export function dataSetValidators(spec: OpenApiDocument): DataSetValidators {
  let found = compiled.get(spec);
  if (found) return found;
  const schemas = (spec.components?.schemas ?? {}) as Record<string, OpenAPIV3.SchemaObject>;
  const schema = (name: string): OpenAPIV3.SchemaObject => {
    const s = schemas[name];
    if (!s) throw new Error(`the contract has no schema ${name}`);
    return s;
  };
  const ajv = createAjv();
  const loginPassword = schema('LoginRequest').properties?.password as OpenAPIV3.SchemaObject;
  const orderItems = schema('Order').properties?.items as OpenAPIV3.ArraySchemaObject | undefined;
  found = {
    // The wire shapes: what the API will answer for these records must pass its own validation.
    user: ajv.compile(schema('UserDto')),
    order: ajv.compile(schema('Order')),
    item: ajv.compile(schema('OrderItem')),
    roles: ajv.compile({ type: 'array', uniqueItems: true, items: schema('RoleName') }),
    password: ajv.compile(loginPassword),
    maxItemsPerOrder: orderItems?.maxItems ?? Infinity,
  };
  compiled.set(spec, found);
  return found;
}
