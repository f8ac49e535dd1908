import type { OpenApiDocument } from './load-spec.js';
import { jsonPointer } from './json-pointer.js';
import { linkProblems } from './link-problems.js';
import { listOperations, type SpecOperation } from './operations.js';
import type { SpecProblem } from './spec-problem.js';
import { walkComponentSchemas } from './walk-component-schemas.js';

/**
 * The rules the OpenAPI schema cannot express, operation by operation (unique operationIds,
 * declared path parameters, known security schemes, links to real operations), then
 * `required` naming real properties in the component schemas.
 */
export function semanticProblems(doc: OpenApiDocument): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const operations = listOperations(doc);
  const seenIds = new Set<string>();
  for (const op of operations) {
    const at = jsonPointer(['paths', op.path, op.method]);
    problems.push(
      ...operationIdProblems(op, at, seenIds),
      ...pathParameterProblems(op, at),
      ...securityProblems(op, at, doc),
      ...linkProblems(op, operations),
    );
  }
  problems.push(...requiredPropertyProblems(doc));
  return problems;
}

function operationIdProblems(op: SpecOperation, at: string, seenIds: Set<string>): SpecProblem[] {
  const problems: SpecProblem[] = [];
  if (!op.operation.operationId) {
    problems.push({ rule: 'operation-id', location: at, message: 'operation has no operationId' });
  } else if (seenIds.has(op.operationId)) {
    problems.push({
      rule: 'operation-id',
      location: at,
      message: `operationId "${op.operationId}" is used more than once`,
    });
  }
  seenIds.add(op.operationId);
  return problems;
}

function pathParameterProblems(op: SpecOperation, at: string): SpecProblem[] {
  const templated = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const declared = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  const problem = (message: string): SpecProblem => ({
    rule: 'path-parameter',
    location: at,
    message,
  });
  return [
    ...templated
      .filter((n) => !declared.includes(n))
      .map((name) => problem(`path parameter "{${name}}" is not declared`)),
    ...declared
      .filter((n) => !templated.includes(n))
      .map((name) => problem(`path parameter "${name}" is declared but not in the path template`)),
  ];
}

function securityProblems(op: SpecOperation, at: string, doc: OpenApiDocument): SpecProblem[] {
  return op.security
    .flatMap((requirement) => Object.keys(requirement))
    .filter((scheme) => !doc.components?.securitySchemes?.[scheme])
    .map((scheme) => ({
      rule: 'security' as const,
      location: at,
      message: `security scheme "${scheme}" is not defined in components.securitySchemes`,
    }));
}

function requiredPropertyProblems(doc: OpenApiDocument): SpecProblem[] {
  const problems: SpecProblem[] = [];
  walkComponentSchemas(doc, (schema, at, siblings) => {
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
