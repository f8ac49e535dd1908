import { declaredValidation } from '../../spec/apikit-extensions.js';
import type { OpenApiDocument } from '../../spec/load-spec.js';
import type { ValidationConvention } from './case-generator.js';

/**
 * The conventions a spec holds its implementations to, beyond OpenAPI, from its root
 * `x-apikit-validation` object. A spec without it holds none of them.
 *
 * @example
 * // x-apikit-validation: { rejectUnknownQueryParameters: true }
 * declaredConventions(doc).has('unknown-query-parameters'); // true
 */
export function declaredConventions(doc: OpenApiDocument): Set<ValidationConvention> {
  const declared = declaredValidation(doc);
  const conventions = new Set<ValidationConvention>();
  if (declared.rejectUnknownQueryParameters) conventions.add('unknown-query-parameters');
  if (declared.plainDecimalQueryIntegers) conventions.add('plain-decimal-integers');
  if (declared.rejectLoneSurrogates) conventions.add('lone-surrogates');
  return conventions;
}
