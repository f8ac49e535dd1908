import { isDeepStrictEqual } from 'node:util';
import { fixedCatalog, rolesDeclaration } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { CheckFailure, ResponseCheck } from '../check.js';
import { firstExample } from '../stateful/fixed-catalog.js';
import { jsonBody } from '../support/stateful-support.js';

/** How much of the answer a failure shows. */
const SHOWN = 300;

/**
 * `fixed_catalog_answers` (a response check): a fixed catalog (`x-apikit-fixed-catalog` on its
 * GET, or the roles catalog of `x-apikit-roles` with `fixedCatalog`) "answers exactly the first
 * example of its 200 answer, always": so every 200 GET of it in the run, whatever query,
 * headers or credential it was asked with, is that example, in that order. `fixed_catalog` and
 * `role_invariants` compare the one GET each makes; found by the mutation harness (issue 32):
 * a catalog with an item more, less, twice or reordered in any other exchange passed.
 */
export const fixedCatalogAnswers: ResponseCheck = {
  kind: 'response',
  name: 'fixed_catalog_answers',
  description:
    'Every 200 GET of a fixed catalog (x-apikit-fixed-catalog, x-apikit-roles fixedCatalog) is exactly its documented example',
  check(exchange, op, ctx): CheckFailure[] {
    if (exchange.request.method !== 'GET' || exchange.response.status !== 200) return [];
    if (!isFixedCatalog(op, ctx.spec)) return [];
    const expected = firstExample(op);
    if (!Array.isArray(expected) || isDeepStrictEqual(jsonBody(exchange), expected)) return [];
    const body = exchange.response.body;
    return [
      {
        message: `the fixed catalog ${op.operationId} answered otherwise than documented to ${exchange.request.url}`,
        expected: `${JSON.stringify(expected)} (the first example of its 200 answer)`,
        actual: body.length > SHOWN ? `${body.slice(0, SHOWN)}…` : body || '(empty body)',
      },
    ];
  },
};

function isFixedCatalog(op: SpecOperation, spec: Parameters<typeof rolesDeclaration>[0]): boolean {
  if (fixedCatalog(op)) return true;
  const roles = rolesDeclaration(spec);
  return roles?.fixedCatalog === true && roles.catalog === op.operationId;
}
