import { describe, expect, expectTypeOf, it } from 'vitest';
import { loadSpec } from '../../../spec/load-spec.js';
import { listOperations } from '../../../spec/operations.js';
import type { HandledOperationId, HandlerTable, OperationInputOf } from './handler-table.js';
import { handlerFor, handlers } from './operation-handlers.js';

describe('the handler table', () => {
  it('has a handler for every operation of the spec but OPTIONS, and no other', async () => {
    const ids = listOperations(await loadSpec())
      .filter((op) => op.method !== 'options')
      .map((op) => op.operationId);
    expect(Object.keys(handlers).sort()).toEqual(ids.sort());
  });

  it('says what the write answers wherever an Idempotency-Key is taken (decision 0109)', async () => {
    const keyed = listOperations(await loadSpec())
      .filter((op) =>
        op.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key'),
      )
      .map((op) => op.operationId);
    expect(keyed.sort()).toEqual(['createUser', 'createUserOrder']);
    for (const id of keyed) expect(handlerFor(id)?.answers, id).toBeTypeOf('function');
  });

  it('looks a handler up by a runtime operationId', () => {
    expect(handlerFor('getUser')).toBe(handlers.getUser);
    expect(handlerFor('optionsUsers')).toBeUndefined();
    expect(handlerFor('toString')).toBeUndefined();
  });

  it('types each input from the spec (checked by tsc)', () => {
    expectTypeOf<'optionsUsers'>().not.toMatchTypeOf<HandledOperationId>();
    expectTypeOf<OperationInputOf<'getUser'>['path']>().toEqualTypeOf<{ id: number }>();
    expectTypeOf<OperationInputOf<'getUser'>['body']>().toEqualTypeOf<undefined>();
    expectTypeOf<OperationInputOf<'logout'>['body']>().toEqualTypeOf<{ refreshToken: string }>();
    expectTypeOf<OperationInputOf<'listUsers'>['query']['page']>().toEqualTypeOf<
      number | undefined
    >();
    // @ts-expect-error a table without a handler for createUser does not compile
    const missing: HandlerTable = { ...handlers, createUser: undefined };
    expect(missing).toBeDefined();
  });
});
