import { describe, expect, it } from 'vitest';
import { foldRepeatedQuery } from './fold-repeated-query.js';
import { loadSpec } from './load-spec.js';

describe('foldRepeatedQuery', () => {
  it.each([
    ['expand=user&expand=items', 'expand=user,items'],
    ['expand=items&page=1&expand=user', 'expand=items,user&page=1'],
    ['expand=user,items', 'expand=user,items'],
    ['expand=user', 'expand=user'],
    ['sort=name&sort=id', 'sort=name&sort=id'],
    ['', ''],
  ])('folds %s into %s on the contract', async (query, folded) => {
    expect(foldRepeatedQuery(await loadSpec())(query)).toBe(folded);
  });

  it('leaves a description that does not declare the convention alone', async () => {
    const doc = await loadSpec();
    const bare = { ...doc, 'x-apikit-validation': {} };
    expect(foldRepeatedQuery(bare)('expand=user&expand=items')).toBe('expand=user&expand=items');
  });
});
