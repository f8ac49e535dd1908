import { describe, expect, it } from 'vitest';
import { inIdOrder, MAX_ARRAY_INDEX } from './in-id-order.js';

describe('inIdOrder', () => {
  it('keeps the key order for array-index-like ids, whatever the insertion order', () => {
    const collection: Record<string, { id: number }> = {};
    for (const id of [30, 2, 100, 7]) collection[String(id)] = { id };
    expect(inIdOrder(collection, 100).map((record) => record.id)).toEqual([2, 7, 30, 100]);
  });

  it('sorts when an id is beyond the array-index range (those keys keep insertion order)', () => {
    const big = MAX_ARRAY_INDEX + 10;
    const collection: Record<string, { id: number }> = {};
    for (const id of [big, MAX_ARRAY_INDEX + 1, 5]) collection[String(id)] = { id };
    // The engine itself would give 5, big, MAX+1: the reason for the sort.
    expect(Object.values(collection).map((record) => record.id)).toEqual([
      5,
      big,
      MAX_ARRAY_INDEX + 1,
    ]);
    expect(inIdOrder(collection, big).map((record) => record.id)).toEqual([
      5,
      MAX_ARRAY_INDEX + 1,
      big,
    ]);
  });
});
