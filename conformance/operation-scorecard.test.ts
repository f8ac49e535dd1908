import { describe, expect, it } from 'vitest';
import type { SpecOperation } from '../spec/operations.js';
import { implementedSummary, operationScorecard } from './operation-scorecard.js';
import type { CheckResult } from './report.js';
import { contractRulesOf } from './rules/rules-of-check.js';
import { RunScope } from './run-scope.js';

function op(operationId: string, method: SpecOperation['method'], path: string) {
  return { operationId, method, path, tags: [] } as unknown as SpecOperation;
}
const listThings = op('listThings', 'get', '/things');
const getThing = op('getThing', 'get', '/things/{id}');
const optionsThing = op('optionsThing', 'options', '/things/{id}');
const deleteThing = op('deleteThing', 'delete', '/things/{id}');

const result = (check: string, operation: SpecOperation, status: CheckResult['status']) =>
  ({
    check,
    operationId: operation.operationId,
    method: operation.method.toUpperCase(),
    path: operation.path,
    status,
    message: status,
  }) as CheckResult;

describe('operationScorecard', () => {
  const results = [
    result('operation_implemented', listThings, 'passed'),
    result('status_code_conformance', listThings, 'passed'),
    result('paging_invariants', listThings, 'failed'),
    result('paging_invariants', listThings, 'failed'),
    result('absent_resource', listThings, 'skipped'),
    result('operation_implemented', deleteThing, 'failed'),
    result('delete_twice', deleteThing, 'skipped'),
    { ...result('open_routes', listThings, 'passed'), operationId: '*' },
  ];

  it("counts each operation's results and names the checks it fails, with their rules", () => {
    const card = operationScorecard(results, [listThings, deleteThing], {
      probed: true,
      missing: (o) => o === deleteThing,
      rulesOf: (check) => (check === 'paging_invariants' ? ['lists.paging.size'] : []),
    });
    expect(card).toEqual([
      {
        operationId: 'listThings',
        method: 'GET',
        path: '/things',
        implemented: true,
        passed: 2,
        failed: 2,
        skipped: 1,
        breaks: [{ check: 'paging_invariants', failures: 2, rules: ['lists.paging.size'] }],
      },
      {
        operationId: 'deleteThing',
        method: 'DELETE',
        path: '/things/{id}',
        implemented: false,
        passed: 0,
        failed: 1,
        skipped: 1,
        breaks: [{ check: 'operation_implemented', failures: 1, rules: [] }],
      },
    ]);
  });

  it('says nothing of implementation when the probe did not run', () => {
    const [row] = operationScorecard(results, [listThings]);
    expect(row && 'implemented' in row).toBe(false);
  });
});

describe('implementedSummary', () => {
  it('counts the probed operations, OPTIONS aside, and names the missing ones', () => {
    const scope = new RunScope(
      [listThings, getThing, optionsThing, deleteThing],
      [listThings, getThing, optionsThing, deleteThing],
    );
    scope.markMissing(getThing, 'no route');
    scope.markMissing(optionsThing, 'no operation of its path');
    expect(implementedSummary(scope)).toEqual({ operations: 2, of: 3, missing: ['getThing'] });
  });
});

describe('contractRulesOf', () => {
  it('names the rules of a check that mention the operation, else its few rules', () => {
    expect(contractRulesOf('delete_twice', 'DELETE', '/users/{id}')).toEqual([
      'users.delete.204-then-404',
    ]);
    expect(contractRulesOf('unique_fields', 'POST', '/users')).toEqual(['users.email.unique']);
  });

  it('names none for a check judging many rules, or none at all', () => {
    expect(contractRulesOf('state_transitions', 'PATCH', '/things/{id}')).toEqual([]);
    expect(contractRulesOf('operation_implemented', 'GET', '/things')).toEqual([]);
  });
});
