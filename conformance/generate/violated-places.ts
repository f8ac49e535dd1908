import type { ErrorObject } from 'ajv';

/**
 * Keywords whose errors say a value matches no branch, not which rule of the chosen branch it
 * breaks: ajv then reports every branch's errors, places another validator may not name.
 */
const BRANCHING = new Set(['oneOf', 'anyOf', 'not', 'if']);

/** Whether ajv's errors come from choosing among branches (see BRANCHING). */
export const branching = (errors: readonly ErrorObject[]) =>
  errors.some((e) => BRANCHING.has(e.keyword));

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The places a value breaks its schema, as JSON Pointer fragments under `base` (`#` for a
 * body), read from ajv's errors (all of them): a missing or unknown property is the place of
 * that property, as the contract's "points at itself" has it; any other violation is the
 * place of the value that breaks it. Each place once, in ajv's order.
 *
 * @example
 * violatedPlaces([{ keyword: 'required', instancePath: '/items/0', params: { missingProperty: 'sku' } }]);
 * // ['#/items/0/sku']
 */
export function violatedPlaces(errors: readonly ErrorObject[], base = '#'): string[] {
  const places = errors.map((error) => {
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required')
      return `${base}${error.instancePath}/${escape(String(params.missingProperty))}`;
    if (error.keyword === 'additionalProperties')
      return `${base}${error.instancePath}/${escape(String(params.additionalProperty))}`;
    return `${base}${error.instancePath}`;
  });
  return [...new Set(places)];
}
