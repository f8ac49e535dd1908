import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../../spec/load-spec.js';
import { listOperations, type SpecOperation } from '../../../spec/operations.js';
import { pairedExamples } from './request-examples.js';

const json = (examples: Record<string, unknown>) => ({
  'application/json': {
    schema: { type: 'object' },
    examples: Object.fromEntries(Object.entries(examples).map(([k, value]) => [k, { value }])),
  },
});

/** Just what `pairedExamples` reads of an operation. */
const operation = (
  request: Record<string, unknown>,
  responses: Record<string, Record<string, unknown>>,
): SpecOperation =>
  ({
    requestBody: { content: json(request) },
    responses: Object.fromEntries(
      Object.entries(responses).map(([status, examples]) => [
        status,
        { description: status, content: json(examples) },
      ]),
    ),
  }) as unknown as SpecOperation;

describe('pairedExamples: a request example pairs with the response example of its name', () => {
  it('pairs by name across statuses, an error answer included', () => {
    const op = operation(
      { ok: { a: 1 }, Taken: { a: 2 }, lonely: { a: 3 } },
      { '201': { ok: {} }, '409': { Taken: {} } },
    );
    expect(pairedExamples(op)).toEqual({
      paired: [
        { name: 'ok', mediaType: 'application/json', value: { a: 1 }, status: 201 },
        { name: 'Taken', mediaType: 'application/json', value: { a: 2 }, status: 409 },
      ],
      unpaired: ['lonely'],
    });
  });

  it('leaves a name found under two statuses, or under a range, unpaired', () => {
    const op = operation(
      { twice: {}, ranged: {} },
      { '400': { twice: {} }, '409': { twice: {} }, '4XX': { ranged: {} } },
    );
    expect(pairedExamples(op)).toEqual({ paired: [], unpaired: ['twice', 'ranged'] });
  });

  it("pairs this spec's login example InvalidCredentials with 401, and nothing else", async () => {
    const ops = listOperations(await loadSpec());
    const paired = ops.flatMap((op) =>
      pairedExamples(op).paired.map((e) => `${op.operationId} ${e.name} ${e.status}`),
    );
    expect(paired).toEqual(['login InvalidCredentials 401']);
  });
});
