import { readFile } from 'node:fs/promises';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parseDocument } from 'yaml';
import type { OpenApiDocument } from './load-spec.js';
import { findInvalidExamples } from './spec-examples.js';
import { jsonPointer } from './json-pointer.js';
import { semanticProblems } from './semantic-problems.js';
import type { SpecProblem } from './spec-problem.js';
import { structureProblems } from './structure-problems.js';

export type { SpecProblem } from './spec-problem.js';

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
