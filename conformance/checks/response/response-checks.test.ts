import { describe, expect, it } from 'vitest';
import type { SpecOperation } from '../../../spec/operations.js';
import type { ResponseValidator, ResponseViolation } from '../../../spec/response-validator.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import { responseChecks } from './response-checks.js';

function exchange(status: number, body: string): Exchange {
  return {
    request: { method: 'GET', url: 'http://t/users/1', headers: {} },
    response: { status, headers: {}, body, durationMs: 1 },
    headers: new Headers({ 'content-type': 'text/html' }),
  };
}

/** A validator that answers one violation of each kind and counts its calls. */
function countingValidator() {
  const calls: string[] = [];
  const validator = {
    validate(operationId: string, response: { status: number }): ResponseViolation[] {
      calls.push(`${operationId} ${response.status}`);
      return [
        { kind: 'status', message: `status of ${operationId}` },
        { kind: 'content-type', message: `media type of ${operationId}` },
        { kind: 'body', message: `body of ${operationId}` },
        { kind: 'header', message: `header of ${operationId}` },
      ];
    },
  } as unknown as ResponseValidator;
  return { validator, calls };
}

const op = (operationId: string) => ({ operationId, method: 'get' }) as SpecOperation;
const check = (name: string) => responseChecks.find((c) => c.name === name)!;
const kinds = [
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'response_headers_conformance',
];

describe('the response checks', () => {
  it('each report their own kind of the validator verdict', () => {
    const { validator } = countingValidator();
    const ctx = { validator } as RunContext;
    const seen = exchange(200, '{}');
    expect(kinds.map((name) => check(name).check(seen, op('getUser'), ctx))).toEqual([
      [{ message: 'status of getUser' }],
      [{ message: 'media type of getUser' }],
      [
        {
          message: 'body of getUser',
          expected: 'a body valid against the schema documented for 200',
          actual: '200 text/html {}',
        },
      ],
      [{ message: 'header of getUser' }],
    ]);
  });

  it('show the body that came back in a schema failure, cut with its length when long', () => {
    const { validator } = countingValidator();
    const ctx = { validator } as RunContext;
    const long = JSON.stringify({ items: 'x'.repeat(2000) });
    const [failure] = check('response_schema_conformance').check(
      exchange(200, long),
      op('getUser'),
      ctx,
    );
    expect(failure?.actual).toBe(
      `200 text/html ${long.slice(0, 600)}… (${long.length} characters)`,
    );
    const [empty] = check('response_schema_conformance').check(
      exchange(200, ''),
      op('getUser'),
      ctx,
    );
    expect(empty?.actual).toBe('200 text/html (empty body)');
  });

  it('validate an exchange once for all four, again for another operation or validator', () => {
    const first = countingValidator();
    const ctx = { validator: first.validator } as RunContext;
    const seen = exchange(404, '');
    for (const name of kinds) check(name).check(seen, op('getUser'), ctx);
    expect(first.calls).toEqual(['getUser 404']);
    for (const name of kinds) check(name).check(seen, op('listUsers'), ctx);
    expect(first.calls).toEqual(['getUser 404', 'listUsers 404']);
    check('status_code_conformance').check(exchange(404, ''), op('listUsers'), ctx);
    expect(first.calls).toHaveLength(3);
    const second = countingValidator();
    check('response_schema_conformance').check(seen, op('listUsers'), {
      validator: second.validator,
    } as RunContext);
    expect(second.calls).toEqual(['listUsers 404']);
  });

  it('not_a_server_error judges the status alone', () => {
    const { validator, calls } = countingValidator();
    const ctx = { validator } as RunContext;
    expect(check('not_a_server_error').check(exchange(503, ''), op('getUser'), ctx)).toEqual([
      { message: 'the server answered 503', expected: 'a status below 500', actual: '503' },
    ]);
    expect(check('not_a_server_error').check(exchange(404, ''), op('getUser'), ctx)).toEqual([]);
    expect(calls).toEqual([]);
  });
});
