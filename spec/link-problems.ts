import type { OpenAPIV3 } from 'openapi-types';
import { jsonPointer } from './json-pointer.js';
import type { SpecOperation } from './operations.js';
import type { SpecProblem } from './spec-problem.js';

/**
 * Links of an operation's responses that name no target, an unknown operationId, or a
 * parameter the target does not have.
 */
export function linkProblems(op: SpecOperation, operations: SpecOperation[]): SpecProblem[] {
  const problems: SpecProblem[] = [];
  for (const [status, response] of Object.entries(op.responses)) {
    const links = Object.entries(response.links ?? {}) as [string, OpenAPIV3.LinkObject][];
    for (const [name, link] of links) {
      const where = jsonPointer(['paths', op.path, op.method, 'responses', status, 'links', name]);
      problems.push(...problemsOfLink(link, where, operations));
    }
  }
  return problems;
}

function problemsOfLink(
  link: OpenAPIV3.LinkObject,
  where: string,
  operations: SpecOperation[],
): SpecProblem[] {
  const problem = (message: string): SpecProblem => ({ rule: 'link', location: where, message });
  if (!link.operationId) {
    return link.operationRef ? [] : [problem('link names no operationId or operationRef')];
  }
  const target = operations.find((o) => o.operationId === link.operationId);
  if (!target) return [problem(`link targets unknown operationId "${link.operationId}"`)];
  return Object.keys(link.parameters ?? {})
    .filter((param) => {
      const bare = param.replace(/^(path|query|header|cookie)\./, '');
      return !target.parameters.some((p) => p.name === bare);
    })
    .map((param) =>
      problem(`link sets parameter "${param}" that ${link.operationId} does not have`),
    );
}
