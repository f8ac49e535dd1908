import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import {
  embeddedItems,
  fixedCatalog,
  parentStates,
  referencesOf,
  scopedBy,
  sortOrder,
  writableIn,
} from './apikit-extensions.js';
import { loadSpec } from './load-spec.js';
import { listOperations } from './operations.js';

const bare = (extensions: Record<string, unknown>) => ({
  operation: { responses: {}, ...extensions } as OpenAPIV3.OperationObject,
});

describe('the extensions of orders, lists and catalogs (decision 0091)', () => {
  it('reads what the contract declares', async () => {
    const byId = new Map(listOperations(await loadSpec()).map((op) => [op.operationId, op]));
    const create = byId.get('createUserOrder')!;
    expect(sortOrder(byId.get('listUsers')!)).toEqual({
      default: 'id',
      param: 'sort',
      tieBreak: 'id',
      nulls: 'last',
    });
    expect(sortOrder(byId.get('listCategories')!)?.param).toBeUndefined();
    expect(fixedCatalog(byId.get('listCategories')!)).toEqual({ item: 'getCategory' });
    expect(parentStates(create)).toEqual({ refused: ['BLOCKED'], status: 409 });
    expect(scopedBy(create)).toEqual({ parameter: 'userId', status: 404 });
    expect(writableIn(create)).toEqual({
      states: ['PENDING'],
      operations: ['replaceUserOrder', 'updateUserOrder'],
      status: 409,
    });
    expect(referencesOf(byId.get('updateUserOrder')!)).toEqual([
      { field: 'categoryId', list: 'listCategories', status: 422 },
    ]);
    expect(embeddedItems(create)).toEqual({
      property: 'items',
      parent: 'orderId',
      read: { link: 'GetOrder', query: { expand: 'items' } },
      item: 'getOrderItem',
      replace: ['replaceUserOrder'],
      datedByParent: true,
    });
  });

  it('counts values of the wrong type as absent, and fills defaults', () => {
    expect(sortOrder(bare({ 'x-apikit-sort': { param: 'sort' } }))).toBeUndefined();
    expect(sortOrder(bare({ 'x-apikit-sort': { default: 'id', nulls: 'middle' } }))).toEqual({
      default: 'id',
      param: undefined,
      tieBreak: 'id',
      nulls: undefined,
    });
    expect(referencesOf(bare({ 'x-apikit-references': [{ field: 'a' }, 'b'] }))).toBeUndefined();
    expect(parentStates(bare({ 'x-apikit-parent-states': { refused: 'X' } }))).toEqual({
      refused: ['X'],
      status: 409,
    });
    expect(scopedBy(bare({ 'x-apikit-scoped': { parameter: 1 } }))).toBeUndefined();
    expect(writableIn(bare({ 'x-apikit-writable-in': { states: ['A'] } }))).toBeUndefined();
    expect(embeddedItems(bare({ 'x-apikit-items': { property: 'items' } }))).toBeUndefined();
    const undated = { property: 'items', read: { link: 'L' }, datedByParent: 'yes' };
    expect(embeddedItems(bare({ 'x-apikit-items': undated }))?.datedByParent).toBe(false);
    expect(fixedCatalog(bare({}))).toBeUndefined();
  });
});
